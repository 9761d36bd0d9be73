// What a share page decides from the request: the device (which wallet
// first, whether to show a QR code) from User-Agent, and the language from
// Accept-Language against the pass's own `.lproj` languages; and the page's
// own few words in the languages it knows.

/** Which wallet a page offers first, and whether it shows a QR code to open it on a phone. */
export interface ShareDevice {
  readonly first: 'apple' | 'google';
  readonly qr: boolean;
}

/**
 * The device a page is opened on, from its User-Agent: an iPhone, an iPad
 * or a Mac gets Apple's button first; an Android phone Google's; a computer
 * both, and a QR code of the page (a Mac too: its Wallet is the phone's).
 *
 * @example
 * ```ts
 * shareDevice('Mozilla/5.0 (Linux; Android 14; Pixel 8) …'); // { first: 'google', qr: false }
 * ```
 */
export function shareDevice(userAgent: string | null): ShareDevice {
  const agent = (userAgent ?? '').slice(0, 512);
  if (/Android/i.test(agent)) return { first: 'google', qr: false };
  if (/iPhone|iPad|iPod/i.test(agent)) return { first: 'apple', qr: false };
  if (/Macintosh|Mac OS X/i.test(agent)) return { first: 'apple', qr: true };
  return { first: 'apple', qr: !/Mobi/i.test(agent) };
}

/**
 * The best language of `available` (the pass's `.lproj` names: `de`,
 * `pt-BR`, `zh-Hans` …) for an Accept-Language header: by quality, an exact
 * match first, then the same primary language; `undefined` when none fits.
 *
 * @example
 * ```ts
 * pickLanguage('de-CH, de;q=0.9, en;q=0.5', ['en', 'de']); // 'de'
 * ```
 */
export function pickLanguage(header: string | null, available: readonly string[]): string | undefined {
  if (available.length === 0 || header === null) return undefined;
  const wanted = header
    .slice(0, 1024)
    .split(',')
    .slice(0, 32)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim().toLowerCase().replaceAll('_', '-'), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((item) => item.tag !== '' && item.tag !== '*' && item.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  const lower = available.map((language) => ({ language, tag: language.toLowerCase().replaceAll('_', '-') }));
  for (const { tag } of wanted) {
    const exact = lower.find((item) => item.tag === tag);
    if (exact !== undefined) return exact.language;
    const primary = tag.split('-')[0]!;
    const same = lower.find((item) => item.tag === primary) ?? lower.find((item) => item.tag.split('-')[0] === primary);
    if (same !== undefined) return same.language;
  }
  return undefined;
}

/** The page's own words. */
export interface ShareWords {
  readonly addApple: string;
  readonly addGoogle: string;
  readonly addAllApple: string;
  readonly addAllGoogle: string;
  readonly scan: string;
  readonly qrLabel: string;
  readonly voided: string;
  readonly expired: string;
  readonly notFound: string;
  readonly passes: string;
}

const WORDS: Readonly<Record<string, ShareWords>> = {
  en: {
    addApple: 'Add to Apple Wallet',
    addGoogle: 'Add to Google Wallet',
    addAllApple: 'Add all to Apple Wallet',
    addAllGoogle: 'Add all to Google Wallet',
    scan: 'Scan with your phone to add it there.',
    qrLabel: 'QR code of this page',
    voided: 'This pass has been voided: it can no longer be added.',
    expired: 'This pass has expired: it can no longer be added.',
    notFound: 'This link does not lead to a pass.',
    passes: 'Passes',
  },
  de: {
    addApple: 'Zu Apple Wallet hinzufügen',
    addGoogle: 'Zu Google Wallet hinzufügen',
    addAllApple: 'Alle zu Apple Wallet hinzufügen',
    addAllGoogle: 'Alle zu Google Wallet hinzufügen',
    scan: 'Mit dem Telefon scannen, um ihn dort hinzuzufügen.',
    qrLabel: 'QR-Code dieser Seite',
    voided: 'Dieser Pass wurde ungültig gemacht und kann nicht mehr hinzugefügt werden.',
    expired: 'Dieser Pass ist abgelaufen und kann nicht mehr hinzugefügt werden.',
    notFound: 'Dieser Link führt zu keinem Pass.',
    passes: 'Pässe',
  },
  fr: {
    addApple: 'Ajouter à Apple Wallet',
    addGoogle: 'Ajouter à Google Wallet',
    addAllApple: 'Tout ajouter à Apple Wallet',
    addAllGoogle: 'Tout ajouter à Google Wallet',
    scan: 'Scannez avec votre téléphone pour l’y ajouter.',
    qrLabel: 'Code QR de cette page',
    voided: 'Ce pass a été annulé : il ne peut plus être ajouté.',
    expired: 'Ce pass a expiré : il ne peut plus être ajouté.',
    notFound: 'Ce lien ne mène à aucun pass.',
    passes: 'Pass',
  },
  es: {
    addApple: 'Añadir a Apple Wallet',
    addGoogle: 'Añadir a Google Wallet',
    addAllApple: 'Añadir todos a Apple Wallet',
    addAllGoogle: 'Añadir todos a Google Wallet',
    scan: 'Escanéalo con tu teléfono para añadirlo allí.',
    qrLabel: 'Código QR de esta página',
    voided: 'Este pase se ha anulado: ya no se puede añadir.',
    expired: 'Este pase ha caducado: ya no se puede añadir.',
    notFound: 'Este enlace no lleva a ningún pase.',
    passes: 'Pases',
  },
};

/**
 * The page's words in `language` (its primary subtag), else English.
 *
 * @example
 * ```ts
 * shareWords('de-AT').addApple; // 'Zu Apple Wallet hinzufügen'
 * ```
 */
export function shareWords(language: string | undefined): ShareWords {
  return WORDS[(language ?? 'en').split('-')[0]!.toLowerCase()] ?? WORDS['en']!;
}
