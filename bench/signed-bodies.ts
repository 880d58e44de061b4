/**
 * Request bodies made before a run, so that during it autocannon's process only sends them. A merchant signs on its
 * own machine; here signing would share the two cores with both servers and PostgreSQL (about 10 µs a body, charged
 * to neither server but taken from both, while pgbench's client sends a ready statement). Both targets get the same
 * treatment. A run that outlasts the pool makes the rest as it goes, and says how many.
 */
export class SignedBodies {
  private readonly ready: string[];
  private taken = 0;
  /** Bodies made during the run because the pool ran out. */
  madeDuringRun = 0;

  constructor(
    private readonly make: () => string,
    count: number,
  ) {
    this.ready = Array.from({ length: count }, make);
  }

  take(): string {
    if (this.taken < this.ready.length) {
      const body = this.ready[this.taken]!;
      this.ready[this.taken++] = ''; // sent bodies are not kept for the rest of the run
      return body;
    }
    this.madeDuringRun += 1;
    return this.make();
  }
}
