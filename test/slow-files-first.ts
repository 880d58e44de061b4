import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take a minute or near it, whatever their size: started first, so that none of them is the last file
 * left running on one core while the other has nothing to do. (Vitest orders by the durations it remembers, and in a
 * fresh clone, which remembers none, by size, which puts the three-line examples.test.ts last.)
 */
const SLOW_FILES = [
  'examples/examples.test.ts',
  'lib/channels/usdt/chain/watch-chain.test.ts',
  'server/failover.http.test.ts',
  'scripts/failover-drill.test.ts',
  'scripts/serve-production.test.ts',
];

const rank = (spec: TestSpecification) => {
  const index = SLOW_FILES.indexOf(path.relative(spec.project.config.root, spec.moduleId).split(path.sep).join('/'));
  return index === -1 ? SLOW_FILES.length : index;
};

/** Vitest's own order (projects in turn, failed and longer first), with the slow files first within each project. */
export class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const position = new Map(sorted.map((spec, index) => [spec, index]));
    return sorted.sort((a, b) => (a.project.name === b.project.name ? rank(a) - rank(b) : 0) || position.get(a)! - position.get(b)!);
  }
}
