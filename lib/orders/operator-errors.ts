/** An operator's action that the state of the data does not allow (unknown merchant or order, wrong state). */
export class OperatorActionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OperatorActionRefused';
  }
}
