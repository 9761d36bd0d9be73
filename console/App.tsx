import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { lazyComponent } from '../playground/lib/lazy.js';
import { Loading } from './components/Notes.js';
import { sessionLost } from './lib/api.js';
import { Link, navigate, route, segments } from './lib/router.js';
import { can, keyName, session, signOut } from './lib/session.js';
import { ImportPage } from './pages/Import.js';
import { KeysPage } from './pages/Keys.js';
import { MessagesPage } from './pages/Messages.js';
import { OverviewPage } from './pages/Overview.js';
import { PassesPage } from './pages/Passes.js';
import { PassPage } from './pages/Pass.js';
import { SignInPage } from './pages/SignIn.js';
import { TemplatesPage } from './pages/Templates.js';
import { WebhooksPage } from './pages/Webhooks.js';

// The designer (CodeMirror, the playground's preview) and the charts (uPlot) load when first opened.
const LoadingPage = (): JSX.Element => <Loading what="Loading the page" />;
const DesignerPage = lazyComponent<{ id: string }>(() => import('./pages/Designer.js').then((module) => module.DesignerPage), LoadingPage);
const AnalyticsPage = lazyComponent<Record<string, never>>(() => import('./pages/Analytics.js').then((module) => module.AnalyticsPage), LoadingPage);

interface NavItem {
  readonly to: string;
  readonly label: string;
  readonly shown: () => boolean;
}

const NAV: readonly NavItem[] = [
  { to: '/', label: 'Overview', shown: () => true },
  { to: '/templates', label: 'Templates', shown: () => true },
  { to: '/passes', label: 'Passes', shown: () => true },
  { to: '/import', label: 'Import', shown: () => can('passes') },
  { to: '/messages', label: 'Messages', shown: () => true },
  { to: '/webhooks', label: 'Webhooks', shown: () => true },
  { to: '/keys', label: 'Keys', shown: () => can('admin') },
  { to: '/analytics', label: 'Analytics', shown: () => true },
];

function section(path: string): string {
  const first = segments(path)[0];
  return first === undefined ? '/' : `/${first}`;
}

function Page(): JSX.Element {
  const { path } = route.value;
  const parts = segments(path);
  switch (parts[0]) {
    case undefined:
      return <OverviewPage />;
    case 'templates':
      return parts[1] === undefined ? <TemplatesPage /> : <DesignerPage id={parts[1]} />;
    case 'passes':
      return parts[1] !== undefined && parts[2] !== undefined ? <PassPage type={parts[1]} serial={parts[2]} /> : <PassesPage />;
    case 'import':
      return <ImportPage />;
    case 'messages':
      return <MessagesPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'keys':
      return <KeysPage />;
    case 'analytics':
      return <AnalyticsPage />;
    default:
      return (
        <>
          <h1 tabIndex={-1}>No such page</h1>
          <p>
            <Link to="/">Back to the overview</Link>
          </p>
        </>
      );
  }
}

function SignOutButton(): JSX.Element {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      disabled={busy}
      data-testid="sign-out"
      onClick={() => {
        setBusy(true);
        void signOut().finally(() => {
          setBusy(false);
          navigate('/', true);
        });
      }}
    >
      Sign out
    </button>
  );
}

/** The console: the sign-in page, or the header, the navigation and the page of the address. */
export function App(): JSX.Element {
  const signedIn = session.value;
  const lost = sessionLost.value;
  const current = section(route.value.path);
  useEffect(() => {
    const page = NAV.find((item) => item.to === current)?.label ?? 'passmint';
    document.title = signedIn ? `${page} · passmint console` : 'Sign in · passmint console';
  }, [current, signedIn]);
  if (signedIn === undefined) return <Loading what="Opening the console" />;
  if (signedIn === null || lost) return <SignInPage expired={lost && signedIn !== null} />;
  return (
    <>
      <a class="skip" href="#main">
        Skip to the page
      </a>
      <header class="console-header">
        <p class="brand">
          passmint <span>console</span>
        </p>
        <nav aria-label="Console">
          <ul>
            {NAV.filter((item) => item.shown()).map((item) => (
              <li key={item.to}>
                <Link to={item.to} aria-current={item.to === current ? 'page' : undefined}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p class="who">
          <span class="note" data-testid="key-name">
            {keyName.value}
          </span>{' '}
          <span class="note">({(signedIn.scopes ?? []).join(', ')})</span> <SignOutButton />
        </p>
      </header>
      <main id="main" class="console-main">
        <Page />
      </main>
    </>
  );
}
