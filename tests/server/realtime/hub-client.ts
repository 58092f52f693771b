import WebSocket from 'ws';

export interface Frame {
  type: string;
  cursor?: number;
  kind?: string;
  ticketId?: number | null;
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A test client of /api/hubs/notifications that records every frame and the close. */
export class HubClient {
  readonly frames: Frame[] = [];
  closed?: { code: number; reason: string };
  private waiters: Array<() => void> = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      this.wake();
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
    socket.on('error', () => {});
  }

  static async open(baseUrl: string): Promise<HubClient> {
    const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/api/hubs/notifications`);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    return new HubClient(socket);
  }

  /** Opens, authenticates and waits for `ready`. */
  static async connect(baseUrl: string, token: string, after?: number): Promise<HubClient> {
    const client = await HubClient.open(baseUrl);
    client.send({ type: 'auth', token, ...(after === undefined ? {} : { after }) });
    await client.waitFor((f) => f.type === 'ready');
    return client;
  }

  private wake() {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  send(frame: unknown) {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  events(kind?: string): Frame[] {
    return this.frames.filter((f) => f.type === 'event' && (!kind || f.kind === kind));
  }

  async waitFor(predicate: (f: Frame) => boolean, timeoutMs = 5000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.find(predicate);
      if (found) return found;
      if (this.closed) throw new Error(`socket closed (${this.closed.code} ${this.closed.reason}) while waiting; frames: ${JSON.stringify(this.frames)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for a frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async waitForClose(timeoutMs = 5000): Promise<{ code: number; reason: string }> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('socket still open');
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.closed;
  }

  close() {
    if (this.socket.readyState === WebSocket.OPEN || this.socket.readyState === WebSocket.CONNECTING) this.socket.close();
  }
}
