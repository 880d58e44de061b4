import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The built sandbox token (ABI and bytecode), written by `npm run sandbox:build-token` from contracts/SandboxUsdt.sol. */
// import.meta.dirname is undefined once Next.js bundles the module (the sandbox wallet's route): the repository root then.
export const TOKEN_ARTIFACT_PATH = path.join(import.meta.dirname ?? path.join(process.cwd(), 'sandbox', 'evm'), 'contracts', 'SandboxUsdt.json');

export interface TokenArtifact {
  contractName: 'SandboxUsdt';
  compiler: string;
  evmVersion: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

export function readTokenArtifact(): TokenArtifact {
  return JSON.parse(readFileSync(TOKEN_ARTIFACT_PATH, 'utf8')) as TokenArtifact;
}
