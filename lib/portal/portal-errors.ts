/** Transport-free outcomes of portal actions; the pages and actions turn them into messages. */
export class PortalNotFound extends Error {
  constructor(what: string) {
    super(`${what} not found`);
    this.name = 'PortalNotFound';
  }
}

export class PortalActionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PortalActionRefused';
  }
}
