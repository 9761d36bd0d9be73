import type { JSX } from 'preact';
import type { Barcode } from '../../src/index.js';
import type { GoogleWalletPass } from '../../src/google/index.js';
import { BarcodeView } from './BarcodeView.js';

type Body = Readonly<Record<string, unknown>>;

const record = (value: unknown): Body | undefined => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Body) : undefined);
/** A Google `LocalizedString` (or a plain string) as text. */
const localized = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : (record(record(record(value)?.['defaultValue']) ?? {})?.['value'] as string | undefined);
const imageUri = (value: unknown): string | undefined => record(record(value)?.['sourceUri'])?.['uri'] as string | undefined;

const BARCODE_FORMATS: Readonly<Record<string, Barcode['format']>> = {
  QR_CODE: 'PKBarcodeFormatQR',
  PDF_417: 'PKBarcodeFormatPDF417',
  AZTEC: 'PKBarcodeFormatAztec',
  CODE_128: 'PKBarcodeFormatCode128',
};

/** Google picks the text color from the background: dark text on light cards, white on dark ones. */
function textColor(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (match === null) return '#ffffff';
  const [r, g, b] = match.slice(1).map((part) => parseInt(part, 16) / 255);
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b! > 0.6 ? '#202124' : '#ffffff';
}

interface Module {
  readonly id: string;
  readonly header?: string;
  readonly body?: string;
}

/** The card's title, header and subheader for each Google type, from the class and object. */
function titles(pass: GoogleWalletPass): { title: string; header: string; subheader?: string | undefined } {
  const { type, class: walletClass, object } = pass;
  const title = localized(object['cardTitle']) ?? localized(walletClass['localizedIssuerName']) ?? (walletClass['issuerName'] as string | undefined) ?? '';
  switch (type) {
    case 'eventTicket':
      return { title, header: localized(walletClass['eventName']) ?? '', subheader: localized(record(walletClass['venue'])?.['name']) };
    case 'offer':
      return {
        title: (walletClass['provider'] as string | undefined) ?? title,
        header: localized(walletClass['localizedTitle']) ?? (walletClass['title'] as string | undefined) ?? '',
      };
    case 'loyalty':
      return {
        title: (walletClass['issuerName'] as string | undefined) ?? title,
        header: localized(walletClass['localizedProgramName']) ?? (walletClass['programName'] as string | undefined) ?? '',
      };
    case 'flight': {
      const info = record(walletClass['flightHeader']);
      const carrier = record(info?.['carrier'])?.['carrierIataCode'] as string | undefined;
      const from = record(walletClass['origin'])?.['airportIataCode'] as string | undefined;
      const to = record(walletClass['destination'])?.['airportIataCode'] as string | undefined;
      // Google refuses a flight class without its airports: say so where they would be.
      const header =
        from !== undefined && to !== undefined
          ? `${from} → ${to}`
          : 'No airports: Google needs the departureAirportCode and destinationAirportCode semantic tags';
      return { title, header, subheader: `${carrier ?? ''}${(info?.['flightNumber'] as string | undefined) ?? ''}` };
    }
    case 'transit': {
      const leg = record(object['ticketLeg']);
      return { title, header: `${localized(leg?.['originName']) ?? ''} → ${localized(leg?.['destinationName']) ?? ''}` };
    }
    default:
      return { title, header: localized(object['header']) ?? '', subheader: localized(object['subheader']) };
  }
}

/** The card rows Google draws: `classTemplateInfo.cardTemplateOverride`, each item read from the object's text modules. */
function rows(pass: GoogleWalletPass, modules: ReadonlyMap<string, Module>): Module[][] {
  const infos = record(record(pass.class['classTemplateInfo'])?.['cardTemplateOverride'])?.['cardRowTemplateInfos'];
  if (!Array.isArray(infos)) return [];
  return infos.map((row: unknown) => {
    const shape = record(row) ?? {};
    const items =
      record(shape['oneItem']) !== undefined ? [record(shape['oneItem'])?.['item']] : Object.values(record(shape['twoItems'] ?? shape['threeItems']) ?? {});
    return items.flatMap((item) => {
      const fields = record(record(item)?.['firstValue'])?.['fields'];
      const path = Array.isArray(fields) ? (fields[0] as unknown) : undefined;
      const id = /textModulesData\['(.*)'\]/.exec(String(record(path)?.['fieldPath'] ?? ''))?.[1];
      const module = id === undefined ? undefined : modules.get(id);
      return module === undefined ? [] : [module];
    });
  });
}

/**
 * A pass as Google Wallet draws the class and object `toGoogleWallet` made: the
 * card in `hexBackgroundColor` with text in the color Google picks, the logo and
 * card title, the type's header, the card rows of the template override, the
 * barcode, the hero image; below it, every text module as Google's details list.
 */
export function GoogleCard({ pass }: { pass: GoogleWalletPass }): JSX.Element {
  const { object, class: walletClass, type } = pass;
  const background = (object['hexBackgroundColor'] as string | undefined) ?? (walletClass['hexBackgroundColor'] as string | undefined) ?? '#4285f4';
  const logo = imageUri(object['logo']) ?? imageUri(walletClass['logo']) ?? imageUri(walletClass['programLogo']) ?? imageUri(walletClass['titleImage']);
  const hero = imageUri(object['heroImage']) ?? imageUri(walletClass['heroImage']);
  const modules = new Map<string, Module>(
    (Array.isArray(object['textModulesData']) ? (object['textModulesData'] as Module[]) : []).map((module) => [module.id, module]),
  );
  const { title, header, subheader } = titles(pass);
  const google = record(object['barcode']);
  const format = BARCODE_FORMATS[String(google?.['type'] ?? '')];
  const barcode: Barcode | undefined =
    google === undefined || format === undefined
      ? undefined
      : {
          format,
          message: String(google['value'] ?? ''),
          messageEncoding: 'iso-8859-1',
          ...(typeof google['alternateText'] === 'string' ? { altText: google['alternateText'] } : {}),
        };
  return (
    <div class="google-view">
      <article
        class="google-card"
        style={{ backgroundColor: background, color: textColor(background) }}
        data-testid="google-preview"
        data-type={type}
        aria-label="Google Wallet pass preview"
      >
        <header class="google-head">
          {logo === undefined ? <span class="google-logo empty" aria-hidden="true" /> : <img class="google-logo" src={logo} alt="" data-testid="google-logo" />}
          <span class="google-title">{title}</span>
        </header>
        {subheader === undefined || type !== 'generic' ? null : <p class="google-subheader">{subheader}</p>}
        <p class="google-header" data-testid="google-header">
          {header}
        </p>
        {type !== 'generic' && subheader !== undefined ? <p class="google-subheader">{subheader}</p> : null}
        {rows(pass, modules).map((row, index) => (
          <div key={index} class="google-row" data-testid="google-row">
            {row.map((module) => (
              <div key={module.id} class="google-item" data-id={module.id}>
                <div class="google-item-label">{module.header ?? ''}</div>
                <div class="google-item-value">{module.body ?? ''}</div>
              </div>
            ))}
          </div>
        ))}
        {barcode === undefined ? null : <BarcodeView barcode={barcode} />}
        {hero === undefined ? null : <img class="google-hero" src={hero} alt="" data-testid="google-hero" />}
      </article>
      <dl class="google-details" data-testid="google-details" aria-label="Google Wallet details">
        {[...modules.values()].map((module) => (
          <div key={module.id}>
            <dt>{module.header ?? ''}</dt>
            <dd>{module.body ?? ''}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
