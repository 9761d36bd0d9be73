import { describe, expect, test } from 'vitest';
import { GoogleWalletError, toGoogleWallet, type GoogleMapOptions } from '../../src/google/index.js';
import { buildPass, type Pass, type TemplateValues } from '../../src/index.js';
import { examples } from '../../playground/examples/index.js';
import { issuer } from '../fixtures.js';

const issuerId = '3388000000012345678';
const base = {
  formatVersion: 1,
  passTypeIdentifier: 'pass.com.example.test',
  serialNumber: 'S-1',
  teamIdentifier: 'A93A5CM278',
  organizationName: 'Example Co',
  description: 'A pass',
} as const;
const classId = `${issuerId}.pass_2ecom_2eexample_2etest`;
const objectId = `${classId}.S-1`;
const codes = (losses: readonly { code: string; path: string }[]) => losses.map((loss) => `${loss.code} ${loss.path}`);
const en = (value: string) => ({ defaultValue: { language: 'en', value } });
const row = (...ids: string[]) => {
  const item = (id: string) => ({ firstValue: { fields: [{ fieldPath: `object.textModulesData['${id}']` }] } });
  if (ids.length === 3) return { threeItems: { startItem: item(ids[0]!), middleItem: item(ids[1]!), endItem: item(ids[2]!) } };
  if (ids.length === 2) return { twoItems: { startItem: item(ids[0]!), endItem: item(ids[1]!) } };
  return { oneItem: { item: item(ids[0]!) } };
};

describe('toGoogleWallet: each pass style', () => {
  test('generic: the first primary field is the header, the others text modules on card rows', () => {
    const pass: Pass = {
      ...base,
      logoText: 'Gym',
      backgroundColor: 'rgb(60, 65, 76)',
      foregroundColor: '#ffffff',
      barcodes: [{ message: 'M-1', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1', altText: 'M-1' }],
      generic: {
        primaryFields: [{ key: 'name', label: 'Member', value: 'Grace Hopper' }],
        secondaryFields: [
          { key: 'level', label: 'Level', value: 'Gold' },
          { key: 'since', label: 'Since', value: 2019 },
        ],
        backFields: [{ key: 'terms', label: 'Terms', value: 'Be nice.' }],
      },
    };
    const result = toGoogleWallet(pass, { issuerId, imageUrl: (path) => (path === 'logo.png' ? 'https://img.example/logo.png' : undefined) });
    expect(result.type).toBe('generic');
    expect(result.class).toEqual({ id: classId, classTemplateInfo: { cardTemplateOverride: { cardRowTemplateInfos: [row('level', 'since')] } } });
    expect(result.object).toEqual({
      id: objectId,
      classId,
      state: 'ACTIVE',
      cardTitle: en('Gym'),
      header: en('Grace Hopper'),
      subheader: en('Member'),
      textModulesData: [
        { id: 'level', header: 'Level', body: 'Gold' },
        { id: 'since', header: 'Since', body: '2019' },
        { id: 'terms', header: 'Terms', body: 'Be nice.' },
      ],
      logo: { sourceUri: { uri: 'https://img.example/logo.png' } },
      barcode: { type: 'QR_CODE', value: 'M-1', alternateText: 'M-1' },
      hexBackgroundColor: '#3c414c',
    });
    // A generic class has no issuer name, and the title shows logoText; the description (VoiceOver's text) has no place either.
    expect(codes(result.losses)).toEqual(['google-key-dropped /organizationName', 'google-key-dropped /description', 'google-color-dropped /foregroundColor']);
  });

  test('eventTicket: the event (its primary field) is the event name; issuerName, review status, fields as modules', () => {
    const pass: Pass = {
      ...base,
      logoText: 'Example Co',
      eventTicket: { primaryFields: [{ key: 'event', value: 'The Engines' }], secondaryFields: [{ key: 'seat', label: 'Seat', value: '12B' }] },
      barcode: { message: 'T', format: 'PKBarcodeFormatPDF417', messageEncoding: 'iso-8859-1' },
    };
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.type).toBe('eventTicket');
    expect(result.class).toEqual({
      id: classId,
      issuerName: 'Example Co',
      reviewStatus: 'UNDER_REVIEW',
      eventName: en('The Engines'),
      classTemplateInfo: { cardTemplateOverride: { cardRowTemplateInfos: [row('event', 'seat')] } },
    });
    expect(result.object).toEqual({
      id: objectId,
      classId,
      state: 'ACTIVE',
      textModulesData: [
        { id: 'event', body: 'The Engines' },
        { id: 'seat', header: 'Seat', body: '12B' },
      ],
      barcode: { type: 'PDF_417', value: 'T' },
    });
    expect(codes(result.losses)).toEqual(['google-key-dropped /description']);
    // A logoText other than the issuer's name: Google shows issuerName there, so it is named.
    expect(codes(toGoogleWallet({ ...pass, logoText: 'Concerts' }, { issuerId }).losses)).toEqual([
      'google-key-dropped /logoText',
      'google-key-dropped /description',
    ]);
  });

  test('storeCard → loyalty: programName, programLogo, the class colored; the balance written as Wallet shows it', () => {
    const pass: Pass = {
      ...base,
      description: '',
      backgroundColor: 'rgb(120, 53, 15)',
      storeCard: { primaryFields: [{ key: 'balance', label: 'Balance', value: 12.5, currencyCode: 'EUR' }] },
    };
    const result = toGoogleWallet(pass, { issuerId, imageUrl: (path) => (path === 'logo.png' ? 'https://img.example/l.png' : undefined), strings: { de: {} } });
    expect(result.type).toBe('loyalty');
    expect(result.class).toMatchObject({
      programName: 'Example Co',
      localizedProgramName: en('Example Co'),
      programLogo: { sourceUri: { uri: 'https://img.example/l.png' } },
      issuerName: 'Example Co',
      hexBackgroundColor: '#78350f',
    });
    // Google has no color on a loyalty object: only its class carries one.
    expect(result.object['hexBackgroundColor']).toBeUndefined();
    expect(result.object['textModulesData']).toEqual([
      {
        id: 'balance',
        header: 'Balance',
        body: '€12.50',
        localizedBody: {
          defaultValue: { language: 'en', value: '€12.50' },
          translatedValues: [{ language: 'de', value: new Intl.NumberFormat('de', { style: 'currency', currency: 'EUR' }).format(12.5) }],
        },
      },
    ]);
    expect(
      String(
        (result.object['textModulesData'] as { localizedBody: { translatedValues: { value: string }[] } }[])[0]!.localizedBody.translatedValues[0]!.value,
      ).replace(/\s/g, ' '),
    ).toBe('12,50 €');
    expect(result.losses).toEqual([]);
  });

  test('storeCard without a hosted logo → generic (Google requires programLogo), said in losses', () => {
    const result = toGoogleWallet(
      { ...base, description: '', storeCard: { primaryFields: [{ key: 'balance', label: 'Balance', value: 12.5, currencyCode: 'EUR' }] } },
      { issuerId },
    );
    expect(result.type).toBe('generic');
    expect(result.object).toMatchObject({ cardTitle: en('Example Co'), header: en('€12.50'), subheader: en('Balance') });
    expect(codes(result.losses)).toEqual(['google-type-changed ']);
    expect(result.losses[0]!.message).toContain('programLogo');
  });

  test('coupon → offer: the offer itself is the title (formatted), the business its provider', () => {
    const pass: Pass = {
      ...base,
      logoText: 'Cake Shop',
      backgroundColor: '#fed7aa',
      coupon: {
        primaryFields: [{ key: 'off', label: 'Off any cake', value: 0.25, numberStyle: 'PKNumberStylePercent' }],
        secondaryFields: [{ key: 'for', label: 'For', value: 'Ada' }],
      },
    };
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.type).toBe('offer');
    expect(result.class).toMatchObject({
      title: '25% Off any cake',
      localizedTitle: en('25% Off any cake'),
      provider: 'Cake Shop',
      issuerName: 'Example Co',
      redemptionChannel: 'BOTH',
      hexBackgroundColor: '#fed7aa',
    });
    expect(result.object['hexBackgroundColor']).toBeUndefined();
    expect(result.object['textModulesData']).toEqual([{ id: 'for', header: 'For', body: 'Ada' }]);
    expect(codes(result.losses)).toEqual(['google-key-dropped /description']);
    // Without a primary field the description is the offer.
    expect(toGoogleWallet({ ...base, coupon: {} }, { issuerId }).class).toMatchObject({ title: 'A pass', provider: 'Example Co' });
  });

  test('air boarding pass → flight, with the semantic tags Google has fields for', () => {
    const pass: Pass = {
      ...base,
      semantics: {
        airlineCode: 'EA',
        flightNumber: 815,
        departureAirportCode: 'LIS',
        destinationAirportCode: 'CPH',
        originalDepartureDate: '2026-05-07T10:30:00+01:00',
        passengerName: { givenName: 'Ada', familyName: 'Lovelace' },
        confirmationNumber: 'K7Q2ZD',
        boardingGroup: '2',
        seats: [{ seatNumber: '23A' }],
        totalPrice: { amount: 1 },
      },
      boardingPass: { transitType: 'PKTransitTypeAir', primaryFields: [{ key: 'from', label: 'Lisbon', value: 'LIS' }] },
    };
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.type).toBe('flight');
    expect(result.class).toMatchObject({
      flightHeader: { carrier: { carrierIataCode: 'EA' }, flightNumber: '815' },
      origin: { airportIataCode: 'LIS' },
      destination: { airportIataCode: 'CPH' },
      localScheduledDepartureDateTime: '2026-05-07T10:30:00',
    });
    expect(result.object).toMatchObject({
      passengerName: 'Ada Lovelace',
      reservationInfo: { confirmationCode: 'K7Q2ZD' },
      boardingAndSeatingInfo: { boardingGroup: '2', seatNumber: '23A' },
    });
    expect(codes(result.losses)).toEqual(['google-key-dropped /description', 'google-semantics-dropped /semantics/totalPrice']);
    // logoText names the airline; gates, terminals, boarding and arrival times go with the airports.
    const more = toGoogleWallet(
      {
        ...pass,
        logoText: 'Example Air',
        semantics: {
          ...pass.semantics,
          departureGate: 'B12',
          departureTerminal: '1',
          originalBoardingDate: '2026-05-07T09:40:00+01:00',
          originalArrivalDate: '2026-05-07T15:10:00+02:00',
        },
      },
      { issuerId },
    );
    expect(more.class).toMatchObject({
      flightHeader: { carrier: { carrierIataCode: 'EA', airlineName: en('Example Air') }, flightNumber: '815' },
      origin: { airportIataCode: 'LIS', gate: 'B12', terminal: '1' },
      localBoardingDateTime: '2026-05-07T09:40:00',
      localScheduledArrivalDateTime: '2026-05-07T15:10:00',
    });
  });

  test('an air boarding pass without the tags a Google flight requires → generic, the missing tags named', () => {
    const pass: Pass = {
      ...base,
      description: '',
      semantics: { airlineCode: 'EA', flightNumber: 815 },
      boardingPass: { transitType: 'PKTransitTypeAir', primaryFields: [{ key: 'from', label: 'Lisbon', value: 'LIS' }] },
    };
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.type).toBe('generic');
    expect(result.object).toMatchObject({ header: en('LIS'), subheader: en('Lisbon') });
    expect(codes(result.losses)).toEqual([
      'google-type-changed /boardingPass/transitType',
      'google-semantics-dropped /semantics/airlineCode',
      'google-semantics-dropped /semantics/flightNumber',
    ]);
    expect(result.losses[0]!.message).toContain('departureAirportCode, destinationAirportCode, originalDepartureDate, passengerName, confirmationNumber');
  });

  test.each([
    ['PKTransitTypeTrain', 'RAIL'],
    ['PKTransitTypeBus', 'BUS'],
    ['PKTransitTypeBoat', 'FERRY'],
    ['PKTransitTypeGeneric', 'OTHER'],
  ] as const)('%s boarding pass → transit %s (with its logo, which Google requires; logoText the operator)', (transitType, google) => {
    const pass: Pass = { ...base, logoText: 'Metro', boardingPass: { transitType, primaryFields: [{ key: 'to', value: 'Porto' }] } };
    const result = toGoogleWallet(pass, { issuerId, imageUrl: (path) => (path === 'logo.png' ? 'https://img.example/l.png' : undefined) });
    expect(result.type).toBe('transit');
    expect(result.class).toMatchObject({
      transitType: google,
      issuerName: 'Example Co',
      logo: { sourceUri: { uri: 'https://img.example/l.png' } },
      transitOperatorName: en('Metro'),
    });
    expect(result.object).toMatchObject({ tripType: 'ONE_WAY', textModulesData: [{ id: 'to', body: 'Porto' }] });
    expect(toGoogleWallet(pass, { issuerId }).type).toBe('generic');
  });
});

describe('toGoogleWallet: losses', () => {
  test('everything Google has no place for is reported, located', () => {
    const pass = {
      ...base,
      generic: {
        primaryFields: [{ key: 'p', value: 'x', changeMessage: 'Now %@', semantics: { eventName: 'x' } }],
        backFields: [
          {
            key: 'date',
            value: '2026-01-01T10:00Z',
            dateStyle: 'PKDateStyleShort',
            attributedValue: '<a href="https://x">x</a>',
            dataDetectorTypes: ['PKDataDetectorTypeLink'],
          },
        ],
      },
      locations: [{ latitude: 1, longitude: 2 }],
      beacons: [{ proximityUUID: 'E2C56DB5-DFFB-48D2-B060-D0F5A71096E0' }],
      maxDistance: 10,
      relevantDate: '2026-01-01T10:00Z',
      relevantDates: [{ date: '2026-01-01T10:00Z' }],
      labelColor: 'rgb(1,2,3)',
      nfc: { message: 'hi' },
      appLaunchURL: 'app://x',
      associatedStoreIdentifiers: [1],
      semantics: { eventName: 'x' },
      footerBackgroundColor: 'rgb(0,0,0)',
      preferredStyleSchemes: ['posterEventTicket'],
      merchandiseURL: 'https://x',
      barcodes: [
        { message: 'a', format: 'PKBarcodeFormatQR', messageEncoding: 'iso-8859-1' },
        { message: 'b', format: 'PKBarcodeFormatAztec', messageEncoding: 'iso-8859-1' },
      ],
      sharingProhibited: true,
      backgroundColor: 'blue',
    } as Pass;
    const result = toGoogleWallet(pass, { issuerId, imageUrl: (path) => `https://img.example/${path}` });
    expect(codes(result.losses)).toEqual([
      'google-change-message-dropped /generic/primaryFields/0/changeMessage',
      'google-semantics-dropped /generic/primaryFields/0/semantics',
      'google-field-degraded /generic/backFields/0/attributedValue',
      'google-field-degraded /generic/backFields/0/dataDetectorTypes',
      ...Array.from({ length: 9 }, () => 'google-image-dropped '),
      'google-key-dropped /description',
      'google-barcode-dropped /barcodes/1',
      'google-color-dropped /backgroundColor',
      'google-nfc-dropped /nfc',
      'google-location-dropped /maxDistance',
      'google-beacon-dropped /beacons',
      'google-relevant-date-dropped /relevantDate',
      'google-relevant-date-dropped /relevantDates',
      'google-color-dropped /labelColor',
      'google-app-link-dropped /appLaunchURL',
      'google-app-link-dropped /associatedStoreIdentifiers',
      'google-key-dropped /sharingProhibited',
      'google-ios-key-dropped /preferredStyleSchemes',
      'google-ios-key-dropped /footerBackgroundColor',
      'google-ios-key-dropped /merchandiseURL',
      'google-semantics-dropped /semantics/eventName',
    ]);
    expect(result.losses.every((loss) => loss.severity === 'warning' && loss.message.length > 10)).toBe(true);
    expect(result.losses.filter((loss) => loss.code === 'google-image-dropped').map((loss) => loss.message)).toEqual([
      'Google Wallet has one hero image: the strip is used, thumbnail.png is left out.',
      'Google Wallet has no slot for background.png: it is left out.',
      'Google Wallet has no slot for footer.png: it is left out.',
      'Google Wallet has no slot for icon.png: it is left out.',
      'Google Wallet has no slot for artwork.png: it is left out.',
      'Google Wallet has no slot for primaryLogo.png: it is left out.',
      'Google Wallet has no slot for secondaryLogo.png: it is left out.',
      'Google Wallet has no slot for venueMap.png: it is left out.',
      'Google Wallet has no slot for personalizationLogo.png: it is left out.',
    ]);
    expect(result.object['heroImage']).toEqual({ sourceUri: { uri: 'https://img.example/strip.png' } });
  });

  test('two fields of one key (a pass Wallet refuses): one text module, the second field a loss', () => {
    const result = toGoogleWallet(
      { ...base, eventTicket: { secondaryFields: [{ key: 'seat', value: '1' }], backFields: [{ key: 'seat', value: '2' }] } },
      { issuerId },
    );
    expect(result.object['textModulesData']).toEqual([{ id: 'seat', body: '1' }]);
    expect(codes(result.losses)).toEqual(['google-field-dropped /eventTicket/backFields/0', 'google-key-dropped /description']);
  });

  test('more than ten fields: the rest dropped; front fields beyond the card rows shown in the details', () => {
    const fields = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => ({ key: `${prefix}${index}`, value: index }));
    const pass: Pass = {
      ...base,
      eventTicket: { headerFields: fields('h', 3), secondaryFields: fields('s', 4), auxiliaryFields: fields('a', 2), backFields: fields('b', 3) },
    };
    const result = toGoogleWallet(pass, { issuerId });
    expect((result.object['textModulesData'] as unknown[]).length).toBe(10);
    expect(codes(result.losses)).toEqual([
      'google-field-degraded /eventTicket/secondaryFields/3',
      'google-field-degraded /eventTicket/auxiliaryFields/0',
      'google-field-degraded /eventTicket/auxiliaryFields/1',
      'google-field-dropped /eventTicket/backFields/1',
      'google-field-dropped /eventTicket/backFields/2',
      'google-key-dropped /description',
    ]);
  });
});

describe('toGoogleWallet: ids, localization, state', () => {
  test('ids are stable, use only allowed characters, and cannot collide', () => {
    const a = toGoogleWallet({ ...base, serialNumber: 'a.b', generic: {} }, { issuerId });
    const b = toGoogleWallet({ ...base, passTypeIdentifier: 'pass.com.example.test.a', serialNumber: 'b', generic: {} }, { issuerId });
    expect(a.object['id']).toBe(toGoogleWallet({ ...base, serialNumber: 'a.b', generic: {} }, { issuerId }).object['id']);
    expect(a.object['id']).not.toBe(b.object['id']);
    expect(toGoogleWallet({ ...base, serialNumber: 'ü/ _', generic: {} }, { issuerId }).object['id']).toBe(`${classId}._c3_bc_2f_20_5f`);
    expect(toGoogleWallet({ ...base, generic: {} }, { issuerId, classSuffix: 'events-2026' }).class['id']).toBe(`${issuerId}.events-2026`);
  });

  test('bad options throw typed errors', () => {
    expect(() => toGoogleWallet({ ...base, generic: {} }, { issuerId: 'abc' })).toThrow(GoogleWalletError);
    expect(() => toGoogleWallet({ ...base, generic: {} }, { issuerId, classSuffix: 'a b' })).toThrow(/class suffix/);
    expect(() => toGoogleWallet({ ...base } as Pass, { issuerId })).toThrow(expect.objectContaining({ code: 'invalid-pass' }));
    const hostile = { ...base, generic: { primaryFields: [null, { key: 'k', value: {} }] } } as unknown as Pass;
    expect(() => toGoogleWallet(hostile, { issuerId })).toThrow(
      expect.objectContaining({ code: 'invalid-pass', message: expect.stringContaining('/generic/primaryFields/0') }),
    );
    expect(toGoogleWallet({ ...base, barcodes: [null], generic: {} } as unknown as Pass, { issuerId }).object['barcode']).toBeUndefined();
  });

  test('pass.strings become translated values', () => {
    const pass: Pass = {
      ...base,
      logoText: 'Gym',
      generic: { primaryFields: [{ key: 'n', label: 'Member', value: 'Ada' }], secondaryFields: [{ key: 'l', label: 'Level', value: 'Gold' }] },
    };
    const result = toGoogleWallet(pass, {
      issuerId,
      strings: { de: { Gym: 'Fitnessstudio', Member: 'Mitglied', Level: 'Stufe', Gold: 'Gold (DE)' }, fr: { Level: 'Niveau' } },
    });
    expect(result.object['cardTitle']).toEqual({
      defaultValue: { language: 'en', value: 'Gym' },
      translatedValues: [{ language: 'de', value: 'Fitnessstudio' }],
    });
    expect(result.object['subheader']).toEqual({
      defaultValue: { language: 'en', value: 'Member' },
      translatedValues: [{ language: 'de', value: 'Mitglied' }],
    });
    expect(result.object['textModulesData']).toEqual([
      {
        id: 'l',
        header: 'Level',
        body: 'Gold',
        localizedHeader: {
          defaultValue: { language: 'en', value: 'Level' },
          translatedValues: [
            { language: 'de', value: 'Stufe' },
            { language: 'fr', value: 'Niveau' },
          ],
        },
        localizedBody: { defaultValue: { language: 'en', value: 'Gold' }, translatedValues: [{ language: 'de', value: 'Gold (DE)' }] },
      },
    ]);
  });

  test('an .lproj named the older way (pt_BR) gives the BCP 47 tag Google reads (pt-BR)', () => {
    const result = toGoogleWallet(
      { ...base, logoText: 'Gym', generic: {} },
      { issuerId, strings: { pt_BR: { Gym: 'Academia' }, 'zh-Hans': { Gym: '健身房' } } },
    );
    expect(result.object['cardTitle']).toEqual({
      defaultValue: { language: 'en', value: 'Gym' },
      translatedValues: [
        { language: 'pt-BR', value: 'Academia' },
        { language: 'zh-Hans', value: '健身房' },
      ],
    });
  });

  test('a translated organizationName becomes localizedIssuerName; an empty logoText leaves the title to organizationName', () => {
    const logo = (path: string) => (path === 'logo.png' ? 'https://img.example/l.png' : undefined);
    const result = toGoogleWallet({ ...base, logoText: '', storeCard: {} }, { issuerId, imageUrl: logo, strings: { de: { 'Example Co': 'Beispiel GmbH' } } });
    expect(result.class).toMatchObject({
      issuerName: 'Example Co',
      localizedIssuerName: { defaultValue: { language: 'en', value: 'Example Co' }, translatedValues: [{ language: 'de', value: 'Beispiel GmbH' }] },
      programName: 'Example Co',
    });
    expect(toGoogleWallet({ ...base, logoText: '', generic: {} }, { issuerId }).object['cardTitle']).toEqual(en('Example Co'));
    expect(toGoogleWallet({ ...base, storeCard: {} }, { issuerId, imageUrl: logo }).class['localizedIssuerName']).toBeUndefined();
  });

  test('voided, expiration date and grouping carry over', () => {
    const result = toGoogleWallet(
      { ...base, voided: true, expirationDate: '2026-12-31T23:59:00Z', groupingIdentifier: 'trip-1', eventTicket: {} },
      { issuerId },
    );
    expect(result.object).toMatchObject({
      state: 'INACTIVE',
      validTimeInterval: { end: { date: '2026-12-31T23:59:00Z' } },
      groupingInfo: { groupingId: 'trip-1' },
    });
  });
});

describe('toGoogleWallet: the playground examples', () => {
  const logo = (path: string) => (path === 'logo.png' ? `https://img.example/${path}` : undefined);
  const built = (id: string): Pass => {
    const example = examples.find((entry) => entry.id === id)!;
    const values = Object.fromEntries(
      Object.entries(example.values).map(([name, value]) => [name, value.json ? JSON.parse(value.text) : value.text]),
    ) as TemplateValues;
    return buildPass(example.template, values, issuer);
  };
  const types: Record<string, string> = {
    membership: 'generic',
    reference: 'generic',
    'event-ticket': 'eventTicket',
    coupon: 'offer',
    'store-card': 'loyalty',
    'poster-event': 'eventTicket',
    'poster-generic': 'generic',
  };

  test.each(examples.map((example) => [example.id] as const))('%s: its type, ids, barcode and color; formats applied, never reported', (id) => {
    const pass = built(id);
    const result = toGoogleWallet(pass, { issuerId, imageUrl: logo });
    // A boarding pass is a Google flight when it carries the airline's semantic tags, else a generic pass.
    expect(result.type).toBe(types[id] ?? (pass.semantics?.['airlineCode'] !== undefined ? 'flight' : 'generic'));
    expect(result.object['id']).toBe(`${result.class['id']}.${issuer.serialNumber}`);
    expect(result.object['barcode']).toMatchObject({ value: (pass.barcodes?.[0] ?? pass.barcode)?.message });
    expect(result.class['hexBackgroundColor'] ?? result.object['hexBackgroundColor']).toMatch(/^#[0-9a-f]{6}$/);
    expect(result.losses.filter((loss) => /\/(dateStyle|timeStyle|numberStyle|currencyCode)$/.test(loss.path))).toEqual([]);
  });

  test('coupon: the title is the offer, "25% Off any cake" (0.25 with numberStyle percent); the business (logoText) the provider', () => {
    expect(toGoogleWallet(built('coupon'), { issuerId }).class).toMatchObject({ title: '25% Off any cake', provider: 'Bakehouse' });
  });

  test('store card: the balance 12.5 in EUR reads €12.50; without a hosted logo the card is generic', () => {
    const loyalty = toGoogleWallet(built('store-card'), { issuerId, imageUrl: logo });
    expect((loyalty.object['textModulesData'] as { id: string; body: string }[]).find((module) => module.id === 'balance')?.body).toBe('€12.50');
    const generic = toGoogleWallet(built('store-card'), { issuerId });
    expect(generic.type).toBe('generic');
    expect(generic.losses[0]).toMatchObject({ code: 'google-type-changed', path: '' });
  });

  test('poster event: event name, venue (venueRegionName its address) and times; the doors date as Wallet shows it, in its own time zone', () => {
    const pass = built('poster-event');
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.class).toMatchObject({
      eventName: { defaultValue: { value: pass.semantics?.['eventName'] } },
      venue: { name: { defaultValue: { value: 'City Hall' } }, address: { defaultValue: { value: 'Sheffield' } } },
      dateTime: { start: pass.semantics?.['eventStartDate'], end: pass.semantics?.['eventEndDate'] },
    });
    const date = (result.object['textModulesData'] as { id: string; body: string }[]).find((module) => module.id === 'date');
    expect(date?.body.replace(/\s/g, ' ')).toBe('Dec 1, 2026, 7:00 PM');
  });
});

describe('toGoogleWallet: values as Wallet shows them', () => {
  const field = (extra: object) => ({ ...base, description: '', eventTicket: { secondaryFields: [{ key: 'v', ...extra }] } }) as Pass;
  const body = (pass: Pass, options: Partial<GoogleMapOptions> = {}) => {
    const result = toGoogleWallet(pass, { issuerId, ...options });
    return { text: String((result.object['textModulesData'] as { body: string }[])[0]!.body).replace(/\s/g, ' '), losses: codes(result.losses) };
  };

  test('numbers: currency, percent, decimal and scientific in the formatting language (default en-US)', () => {
    expect(body(field({ value: 1234.5, currencyCode: 'USD' }))).toEqual({ text: '$1,234.50', losses: [] });
    expect(body(field({ value: 1234.5, currencyCode: 'EUR' }), { locale: 'de-DE' }).text).toBe('1.234,50 €');
    expect(body(field({ value: 0.125, numberStyle: 'PKNumberStylePercent' }))).toEqual({ text: '12.5%', losses: [] });
    expect(body(field({ value: 1234567, numberStyle: 'PKNumberStyleDecimal' })).text).toBe('1,234,567');
    expect(body(field({ value: 1234567, numberStyle: 'PKNumberStyleScientific' })).text).toBe('1.235E6');
    // The pass's own language, when given, formats too.
    expect(body(field({ value: 0.5, numberStyle: 'PKNumberStylePercent' }), { language: 'fr' }).text).toBe('50 %');
  });

  test('what cannot be applied is shown as given and named', () => {
    expect(body(field({ value: 3, numberStyle: 'PKNumberStyleSpellOut' }))).toEqual({
      text: '3',
      losses: ['google-field-degraded /eventTicket/secondaryFields/0/numberStyle'],
    });
    expect(body(field({ value: '12', currencyCode: 'EUR' }))).toEqual({
      text: '12',
      losses: ['google-field-degraded /eventTicket/secondaryFields/0/currencyCode'],
    });
    expect(body(field({ value: 'soon', dateStyle: 'PKDateStyleShort' }))).toEqual({
      text: 'soon',
      losses: ['google-field-degraded /eventTicket/secondaryFields/0/dateStyle'],
    });
    expect(body(field({ value: '2026-12-01T19:00:00+01:00', dateStyle: 'PKDateStyleShort', isRelative: true }))).toEqual({
      text: '12/1/26',
      losses: ['google-field-degraded /eventTicket/secondaryFields/0/isRelative'],
    });
  });

  test('dates: styles applied; shown as written, or in timeZone unless the field ignoresTimeZone', () => {
    const date = { value: '2026-12-01T19:00:00+01:00', dateStyle: 'PKDateStyleMedium', timeStyle: 'PKDateStyleShort' };
    expect(body(field(date))).toEqual({ text: 'Dec 1, 2026, 7:00 PM', losses: [] });
    expect(body(field(date), { timeZone: 'America/New_York' }).text).toBe('Dec 1, 2026, 1:00 PM');
    expect(body(field({ ...date, ignoresTimeZone: true }), { timeZone: 'America/New_York' }).text).toBe('Dec 1, 2026, 7:00 PM');
    expect(body(field({ value: '2026-12-01T19:00:00Z', timeStyle: 'PKDateStyleShort' })).text).toBe('7:00 PM');
    expect(body(field({ value: '2026-12-01T19:00:00Z', dateStyle: 'PKDateStyleFull', timeStyle: 'PKDateStyleLong' })).text).toBe(
      'Tuesday, December 1, 2026 at 7:00:00 PM',
    );
  });

  test('the formatting language and time zone are checked', () => {
    expect(() => toGoogleWallet(field({ value: 1 }), { issuerId, locale: 'not a language!' })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
    expect(() => toGoogleWallet(field({ value: 1 }), { issuerId, timeZone: 'Mars/Olympus' })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
  });
});

describe('toGoogleWallet: places and NFC', () => {
  test('locations become merchantLocations (up to 10); relevant text, altitude and the rest are named', () => {
    const locations = [
      { latitude: 38.7, longitude: -9.1, relevantText: 'Near the shop', altitude: 20 },
      { latitude: 91, longitude: 0 },
      ...Array.from({ length: 10 }, (_, index) => ({ latitude: index, longitude: index })),
    ];
    const result = toGoogleWallet({ ...base, description: '', locations, generic: {} } as Pass, { issuerId });
    expect(result.object['merchantLocations']).toEqual([
      { latitude: 38.7, longitude: -9.1 },
      ...Array.from({ length: 9 }, (_, index) => ({ latitude: index, longitude: index })),
    ]);
    expect(codes(result.losses)).toEqual([
      'google-location-dropped /locations/0/relevantText',
      'google-location-dropped /locations/0/altitude',
      'google-location-dropped /locations/1',
      'google-location-dropped /locations/11',
    ]);
  });

  test('nfc with redemptionIssuers → Smart Tap: enableSmartTap and the issuers on the class, nfc.message the redemption value', () => {
    const pass = {
      ...base,
      description: '',
      nfc: { message: 'member-4711', encryptionPublicKey: 'MDkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDIgAC', requiresAuthentication: true },
      storeCard: {},
    } as Pass;
    const result = toGoogleWallet(pass, { issuerId, imageUrl: (path) => `https://img.example/${path}`, redemptionIssuers: ['3388000000099999999'] });
    expect(result.class).toMatchObject({ enableSmartTap: true, redemptionIssuers: ['3388000000099999999'] });
    expect(result.object['smartTapRedemptionValue']).toBe('member-4711');
    expect(codes(result.losses).filter((code) => code.startsWith('google-nfc'))).toEqual([
      'google-nfc-dropped /nfc/encryptionPublicKey',
      'google-nfc-dropped /nfc/requiresAuthentication',
    ]);
    // Without redemption issuers: nfc is a loss that says what is missing.
    const without = toGoogleWallet(pass, { issuerId });
    expect(without.object['smartTapRedemptionValue']).toBeUndefined();
    expect(without.losses.find((loss) => loss.path === '/nfc')?.message).toContain('give redemptionIssuers');
    expect(() => toGoogleWallet(pass, { issuerId, redemptionIssuers: [] })).toThrow(expect.objectContaining({ code: 'invalid-argument' }));
    expect(() => toGoogleWallet(pass, { issuerId, redemptionIssuers: ['abc'] })).toThrow(/redemptionIssuers/);
  });
});

describe('toGoogleWallet: iOS 27 posterGeneric', () => {
  const poster = {
    headerFields: [{ key: 'member', label: 'Member', value: 'Ada' }],
    primaryFields: [
      { key: 'title', value: 'Summer Festival' },
      { key: 'date', label: 'Date', value: 'July 4' },
    ],
    footerFields: [{ key: 'note', value: 'Bring ID' }],
    additionalInfoFields: [{ key: 'info', label: 'Info', value: 'Gates at 6' }],
  };
  const featuredActions = [{ identifier: 'schedule', type: 'viewSchedule', url: 'https://example.com/s' }];

  test('posterGeneric alone → generic: its first primary field is the header, footer and additional info fields become text modules, poster-only parts are losses', () => {
    const pass = { ...base, posterGeneric: poster, featuredActions } as Pass;
    const result = toGoogleWallet(pass, {
      issuerId,
      imageUrl: (path) => (['artwork.png', 'primaryLogo.png', 'logo.png'].includes(path) ? `https://img.example/${path}` : undefined),
    });
    expect(result.type).toBe('generic');
    expect(result.object).toMatchObject({ header: en('Summer Festival'), logo: { sourceUri: { uri: 'https://img.example/logo.png' } } });
    expect(result.object['textModulesData']).toEqual([
      { id: 'member', header: 'Member', body: 'Ada' },
      { id: 'date', header: 'Date', body: 'July 4' },
      { id: 'note', body: 'Bring ID' },
      { id: 'info', header: 'Info', body: 'Gates at 6' },
    ]);
    expect(codes(result.losses)).toEqual([
      'google-image-dropped ',
      'google-image-dropped ',
      'google-key-dropped /description',
      'google-ios-key-dropped /featuredActions',
    ]);
    expect(result.losses.slice(0, 2).map((loss) => loss.message)).toEqual([
      'Google Wallet has no slot for artwork.png: it is left out.',
      'Google Wallet has no slot for primaryLogo.png: it is left out.',
    ]);
  });

  test('posterGeneric beside a classic style: the classic style is mapped; the poster layout and each poster-only field are losses', () => {
    const pass = {
      ...base,
      preferredStyleSchemes: ['posterEventTicket', 'eventTicket'],
      eventTicket: { primaryFields: [{ key: 'title', value: 'Summer Festival' }], secondaryFields: [{ key: 'member', label: 'Member', value: 'Ada' }] },
      posterGeneric: poster,
      featuredActions,
    } as Pass;
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.type).toBe('eventTicket');
    expect(result.object['textModulesData']).toEqual([
      { id: 'title', body: 'Summer Festival' },
      { id: 'member', header: 'Member', body: 'Ada' },
    ]);
    expect(codes(result.losses)).toEqual([
      'google-key-dropped /posterGeneric',
      'google-field-dropped /posterGeneric/primaryFields/1',
      'google-field-dropped /posterGeneric/footerFields/0',
      'google-field-dropped /posterGeneric/additionalInfoFields/0',
      'google-key-dropped /description',
      'google-ios-key-dropped /preferredStyleSchemes',
      'google-ios-key-dropped /featuredActions',
    ]);
  });

  test('footer fields on a classic style (Wallet does not show them) are reported, not mapped', () => {
    const result = toGoogleWallet({ ...base, generic: { footerFields: [{ key: 'f', value: 'x' }] } } as Pass, { issuerId });
    expect(result.object['textModulesData']).toBeUndefined();
    expect(codes(result.losses)).toEqual(['google-field-dropped /generic/footerFields/0']);
  });
});

describe('toGoogleWallet: event ticket semantic tags (iOS 18 poster event tickets)', () => {
  test("event name, venue, dates, attendee, first seat, gate and confirmation fill Google's event ticket fields; the rest are losses", () => {
    const pass = {
      ...base,
      logoText: 'Tickets Co',
      preferredStyleSchemes: ['posterEventTicket', 'eventTicket'],
      semantics: {
        eventName: 'The Engines',
        venueName: 'Hall 3',
        venueRegionName: 'Sheffield',
        eventStartDate: '2026-07-04T20:00:00+02:00',
        eventEndDate: '2026-07-04T23:00:00+02:00',
        venueDoorsOpenDate: '2026-07-04T18:30:00+02:00',
        attendeeName: 'Ada Lovelace',
        confirmationNumber: 'K7Q2',
        seats: [{ seatNumber: '12', seatRow: 'F', seatSection: '104', seatType: 'Premium' }, { seatNumber: '13' }],
        venueEntranceGate: 'B',
        venueLocation: { latitude: 1, longitude: 2 },
        performerNames: ['The Engines'],
        eventType: 'PKEventTypeLivePerformance',
      },
      eventTicket: { primaryFields: [{ key: 'event', value: 'The Engines' }] },
    } as Pass;
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.class).toMatchObject({
      eventName: en('The Engines'),
      venue: { name: en('Hall 3'), address: en('Sheffield') },
      dateTime: { start: '2026-07-04T20:00:00+02:00', end: '2026-07-04T23:00:00+02:00', doorsOpen: '2026-07-04T18:30:00+02:00' },
    });
    expect(result.object).toMatchObject({
      ticketHolderName: 'Ada Lovelace',
      reservationInfo: { confirmationCode: 'K7Q2' },
      seatInfo: { seat: en('12'), row: en('F'), section: en('104'), gate: en('B') },
    });
    expect(codes(result.losses)).toEqual([
      'google-semantics-dropped /semantics/seats/0/seatType',
      'google-semantics-dropped /semantics/seats/1',
      'google-key-dropped /logoText',
      'google-key-dropped /description',
      'google-ios-key-dropped /preferredStyleSchemes',
      'google-semantics-dropped /semantics/venueLocation',
      'google-semantics-dropped /semantics/performerNames',
      'google-semantics-dropped /semantics/eventType',
    ]);
    // A venue name without an address (Google requires one): no venue, and the name is a loss.
    const { venueRegionName: _, ...tags } = pass.semantics as Record<string, unknown>;
    const noAddress = toGoogleWallet({ ...pass, semantics: tags }, { issuerId });
    expect(noAddress.class['venue']).toBeUndefined();
    expect(noAddress.losses.find((loss) => loss.path === '/semantics/venueName')?.message).toContain("requires a venue's address");
  });

  test('a tag of the wrong type is reported as dropped, not silently used; without eventName the title names the event', () => {
    const pass = {
      ...base,
      logoText: 'Concert',
      semantics: { eventStartDate: 20260704, venueName: { name: 'x' }, seats: 'A1' },
      eventTicket: {},
    } as unknown as Pass;
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.class['eventName']).toEqual(en('Concert'));
    expect(result.class['dateTime']).toBeUndefined();
    expect(codes(result.losses)).toEqual([
      'google-key-dropped /description',
      'google-semantics-dropped /semantics/eventStartDate',
      'google-semantics-dropped /semantics/venueName',
      'google-semantics-dropped /semantics/seats',
    ]);
  });

  test('a flight tag of the wrong type is reported too; a required one of the wrong type makes the pass generic', () => {
    const tags = {
      airlineCode: 'EA',
      flightNumber: 815,
      departureAirportCode: 'LIS',
      destinationAirportCode: 'CPH',
      originalDepartureDate: '2026-05-07T10:30:00+01:00',
      passengerName: { givenName: 'Ada' },
      confirmationNumber: 'K7Q2ZD',
    };
    const pass = {
      ...base,
      description: '',
      semantics: { ...tags, boardingGroup: { group: 2 }, seats: [{ seatNumber: '1A', seatRow: '1' }] },
      boardingPass: { transitType: 'PKTransitTypeAir' },
    } as unknown as Pass;
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.type).toBe('flight');
    expect(result.object['boardingAndSeatingInfo']).toEqual({ seatNumber: '1A' });
    expect(codes(result.losses)).toEqual(['google-semantics-dropped /semantics/seats/0/seatRow', 'google-semantics-dropped /semantics/boardingGroup']);
    const wrong = toGoogleWallet({ ...pass, semantics: { ...tags, airlineCode: { iata: 'EA' } } } as unknown as Pass, { issuerId });
    expect(wrong.type).toBe('generic');
    expect(wrong.class['flightHeader']).toBeUndefined();
    expect(codes(wrong.losses)).toEqual([
      'google-type-changed /boardingPass/transitType',
      ...Object.keys(tags).map((tag) => `google-semantics-dropped /semantics/${tag}`),
    ]);
    expect(wrong.losses[0]!.message).toMatch(/lacks the semantic tag airlineCode, so/);
  });
});

describe('toGoogleWallet: barcodes', () => {
  test("iOS 27 linear formats map to Google's; an ITF that is not ITF-14 falls back to the next barcode", () => {
    const barcode = (format: string, message: string) => ({ format, message, messageEncoding: 'iso-8859-1' });
    const map = (barcodes: object[]) => toGoogleWallet({ ...base, barcodes, generic: {} } as Pass, { issuerId });
    expect(map([barcode('PKBarcodeFormatEAN13', '4006381333931')]).object['barcode']).toEqual({ type: 'EAN_13', value: '4006381333931' });
    expect(map([barcode('PKBarcodeFormatCode39', 'ABC-1')]).object['barcode']).toEqual({ type: 'CODE_39', value: 'ABC-1' });
    expect(map([barcode('PKBarcodeFormatCodabar', 'A123B')]).object['barcode']).toEqual({ type: 'CODABAR', value: 'A123B' });
    expect(map([barcode('PKBarcodeFormatI2of5', '12345678901231')]).object['barcode']).toEqual({ type: 'ITF_14', value: '12345678901231' });
    const fallback = map([barcode('PKBarcodeFormatI2of5', '1234'), barcode('PKBarcodeFormatCode128', '1234'), barcode('PKBarcodeFormatQR', '1234')]);
    expect(fallback.object['barcode']).toEqual({ type: 'CODE_128', value: '1234' });
    expect(codes(fallback.losses)).toEqual(['google-barcode-dropped /barcodes/0', 'google-barcode-dropped /barcodes/2']);
    // None Google can draw: the first one's message is shown as text.
    const text = map([{ ...barcode('PKBarcodeFormatI2of5', '1234'), altText: 'No. 1234' }]);
    expect(text.object['barcode']).toEqual({ type: 'TEXT_ONLY', value: '1234', alternateText: 'No. 1234' });
    expect(codes(text.losses)).toEqual(['google-barcode-dropped /barcodes/0/format']);
    expect(text.losses[0]!.message).toBe(
      'Google Wallet draws Interleaved 2 of 5 only as ITF-14 (14 digits): Google Wallet shows its message as text instead of a code.',
    );
  });

  test('prototype names and wrong types never pass for a format or a transit type', () => {
    const proto = toGoogleWallet(
      {
        ...base,
        barcodes: [
          { format: '__proto__', message: 'x' },
          { format: 'constructor', message: 'y' },
          { format: 'PKBarcodeFormatQR', message: 7 },
        ],
        generic: {},
      } as unknown as Pass,
      { issuerId },
    );
    // Not one Google can draw: the first message is shown as text, never a format taken from the prototype.
    expect(proto.object['barcode']).toEqual({ type: 'TEXT_ONLY', value: 'x' });
    expect(codes(proto.losses)).toEqual([
      'google-barcode-dropped /barcodes/0/format',
      'google-barcode-dropped /barcodes/1',
      'google-barcode-dropped /barcodes/2',
    ]);
    const transit = toGoogleWallet({ ...base, boardingPass: { transitType: 'constructor' } } as unknown as Pass, {
      issuerId,
      imageUrl: (path) => `https://img.example/${path}`,
    });
    expect(transit.class['transitType']).toBe('OTHER');
    const both = toGoogleWallet(
      { ...base, barcode: { format: 'PKBarcodeFormatQR', message: 'old', messageEncoding: 'iso-8859-1' }, barcodes: [], generic: {} },
      { issuerId },
    );
    expect(both.object['barcode']).toEqual({ type: 'QR_CODE', value: 'old' });
  });
});

describe('toGoogleWallet: values of the wrong type', () => {
  test("a label, logoText, description, color, grouping or expiration that is not a string is a loss, never copied into Google's resources", () => {
    const pass = {
      ...base,
      logoText: { x: 1 },
      description: 5,
      backgroundColor: [1],
      groupingIdentifier: 3,
      expirationDate: { at: 1 },
      semantics: 'x',
      generic: { secondaryFields: [{ key: 's', label: 12, value: 'v' }] },
    } as unknown as Pass;
    const result = toGoogleWallet(pass, { issuerId });
    expect(result.object).toEqual({
      id: objectId,
      classId,
      state: 'ACTIVE',
      cardTitle: en('Example Co'),
      header: en('Example Co'),
      textModulesData: [{ id: 's', body: 'v' }],
    });
    expect(codes(result.losses)).toEqual([
      'google-key-dropped /logoText',
      'google-key-dropped /description',
      'google-field-degraded /generic/secondaryFields/0/label',
      'google-color-dropped /backgroundColor',
      'google-key-dropped /groupingIdentifier',
      'google-key-dropped /expirationDate',
      'google-semantics-dropped /semantics',
    ]);
  });
});

describe('toGoogleWallet: hostile sizes', () => {
  test('200,000 fields, 100,000 barcodes, semantic tags nested 100,000 deep: a result with a loss each, no stack overflow', () => {
    const many = Array.from({ length: 200_000 }, (_, index) => ({ key: `k${index}`, value: 'v' }));
    let deep: unknown = 1;
    for (let depth = 0; depth < 100_000; depth++) deep = { a: deep };
    const pass = {
      ...base,
      generic: { backFields: many },
      posterGeneric: { primaryFields: many },
      semantics: { seats: [deep], eventName: deep, venueName: [deep] },
      barcodes: Array.from({ length: 100_000 }, () => ({ format: 'PKBarcodeFormatQR', message: 'm', messageEncoding: 'iso-8859-1' })),
    } as unknown as Pass;
    const result = toGoogleWallet(pass, { issuerId });
    expect((result.object['textModulesData'] as unknown[]).length).toBe(10);
    const count = (code: string) => result.losses.filter((loss) => loss.code === code).length;
    expect(count('google-field-dropped')).toBe(200_000 - 10);
    expect(count('google-barcode-dropped')).toBe(100_000 - 1);
    expect(result.losses.filter((loss) => loss.path.startsWith('/semantics/')).map((loss) => loss.path)).toEqual([
      '/semantics/seats',
      '/semantics/eventName',
      '/semantics/venueName',
    ]);
  });
});
