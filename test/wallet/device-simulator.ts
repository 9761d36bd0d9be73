// A device that follows Apple's PassKit web service protocol step by step, as
// Wallet does ("Adding a Web Service to Update Passes"): it registers a pass
// it adds, and on a push asks for the serials changed since its last tag,
// then fetches each changed pass with If-Modified-Since. Real HTTP (fetch).

/** A pass as the device holds it. */
export interface HeldPass {
  readonly passTypeIdentifier: string;
  readonly serialNumber: string;
  readonly authenticationToken: string;
  bytes: Uint8Array | undefined;
  lastModified: string | undefined;
}

/** One HTTP exchange the simulator made, for assertions. */
export interface Exchange {
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

export class DeviceSimulator {
  readonly exchanges: Exchange[] = [];
  readonly passes = new Map<string, HeldPass>();
  /** passTypeIdentifier → the last `lastUpdated` tag the service gave. */
  readonly tags = new Map<string, string>();
  /** Push payloads received, as APNs delivered them. */
  readonly pushes: string[] = [];

  constructor(
    /** The pass's `webServiceURL`, ending in a slash. */
    readonly webServiceURL: string,
    readonly deviceLibraryIdentifier: string,
    readonly pushToken: string,
  ) {}

  private url(path: string): string {
    return new URL(path, this.webServiceURL).href;
  }

  private async call(method: string, path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(this.url(path), { ...init, method });
    this.exchanges.push({ method, path, status: response.status });
    return response;
  }

  private registrationPath(pass: { passTypeIdentifier: string; serialNumber: string }): string {
    return `v1/devices/${encodeURIComponent(this.deviceLibraryIdentifier)}/registrations/${encodeURIComponent(pass.passTypeIdentifier)}/${encodeURIComponent(pass.serialNumber)}`;
  }

  /** The user adds a pass: Wallet registers it for updates. Returns the status. */
  async addPass(pass: { passTypeIdentifier: string; serialNumber: string; authenticationToken: string }, bytes?: Uint8Array): Promise<number> {
    this.passes.set(`${pass.passTypeIdentifier}/${pass.serialNumber}`, { ...pass, bytes, lastModified: undefined });
    const response = await this.call('POST', this.registrationPath(pass), {
      headers: { authorization: `ApplePass ${pass.authenticationToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pushToken: this.pushToken }),
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** APNs delivers a push for a pass type to this device. */
  receivePush(payload: string): void {
    this.pushes.push(payload);
  }

  /** What Wallet does after a push for `passTypeIdentifier`: poll, then fetch each changed pass. */
  async update(passTypeIdentifier: string): Promise<{ serialsStatus: number; serialNumbers: string[]; fetched: number[] }> {
    const since = this.tags.get(passTypeIdentifier);
    const query = since === undefined ? '' : `?passesUpdatedSince=${encodeURIComponent(since)}`;
    const response = await this.call(
      'GET',
      `v1/devices/${encodeURIComponent(this.deviceLibraryIdentifier)}/registrations/${encodeURIComponent(passTypeIdentifier)}${query}`,
    );
    if (response.status === 204) return { serialsStatus: 204, serialNumbers: [], fetched: [] };
    const body = (await response.json()) as { lastUpdated: string; serialNumbers: string[] };
    this.tags.set(passTypeIdentifier, body.lastUpdated);
    const fetched: number[] = [];
    for (const serialNumber of body.serialNumbers) fetched.push(await this.fetchPass(passTypeIdentifier, serialNumber));
    return { serialsStatus: response.status, serialNumbers: body.serialNumbers, fetched };
  }

  /** GET the latest version, conditional on the one held. */
  async fetchPass(passTypeIdentifier: string, serialNumber: string): Promise<number> {
    const held = this.passes.get(`${passTypeIdentifier}/${serialNumber}`);
    if (held === undefined) throw new Error(`the device does not hold ${passTypeIdentifier}/${serialNumber}`);
    const headers: Record<string, string> = { authorization: `ApplePass ${held.authenticationToken}` };
    if (held.lastModified !== undefined) headers['if-modified-since'] = held.lastModified;
    const response = await this.call('GET', `v1/passes/${encodeURIComponent(passTypeIdentifier)}/${encodeURIComponent(serialNumber)}`, { headers });
    if (response.status === 200) {
      held.bytes = new Uint8Array(await response.arrayBuffer());
      held.lastModified = response.headers.get('last-modified') ?? undefined;
    } else {
      await response.arrayBuffer();
    }
    return response.status;
  }

  /** The user removes the pass: Wallet unregisters it. */
  async removePass(passTypeIdentifier: string, serialNumber: string): Promise<number> {
    const held = this.passes.get(`${passTypeIdentifier}/${serialNumber}`);
    if (held === undefined) throw new Error('not held');
    const response = await this.call('DELETE', this.registrationPath(held), { headers: { authorization: `ApplePass ${held.authenticationToken}` } });
    await response.arrayBuffer();
    this.passes.delete(`${passTypeIdentifier}/${serialNumber}`);
    return response.status;
  }

  /**
   * Rewards enrollment: the user completed the signup form of a
   * personalizable pass; Wallet posts the data and its personalization token
   * (no Authorization header: Apple documents none for this call). Returns
   * the status and the body (the signed token when 200).
   */
  async personalize(
    pass: { passTypeIdentifier: string; serialNumber: string },
    personalizationToken: string,
    requiredPersonalizationInfo: Record<string, string>,
  ): Promise<{ status: number; body: Uint8Array; contentType: string | null }> {
    const path = `v1/passes/${encodeURIComponent(pass.passTypeIdentifier)}/${encodeURIComponent(pass.serialNumber)}/personalize`;
    const response = await this.call('POST', path, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ personalizationToken, requiredPersonalizationInfo }),
    });
    return { status: response.status, body: new Uint8Array(await response.arrayBuffer()), contentType: response.headers.get('content-type') };
  }

  /** Wallet reports problems it met with the web service. */
  async log(messages: string[]): Promise<number> {
    const response = await this.call('POST', 'v1/log', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ logs: messages }) });
    await response.arrayBuffer();
    return response.status;
  }
}
