import { execFileSync } from 'node:child_process';

/**
 * The path of a Prometheus program (prometheus, promtool), or an error naming the package that installs it: the tests
 * that need them fail, never skip, where it is missing.
 */
export function prometheusBinary(name: 'prometheus' | 'promtool'): string {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${name} is not installed: install Debian's \`prometheus\` package (apt-get install prometheus), which brings prometheus and promtool`);
  }
}
