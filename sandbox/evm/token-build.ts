import { readFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';
import type { TokenArtifact } from './token-artifact';

export { TOKEN_ARTIFACT_PATH } from './token-artifact';

export const TOKEN_SOURCE_PATH = path.join(import.meta.dirname, 'contracts', 'SandboxUsdt.sol');
/** ganache 7 implements the EVM up to Shanghai (PUSH0); later opcodes (MCOPY, transient storage) would not run. */
const EVM_VERSION = 'shanghai';

/** Compiles sandbox/evm/contracts/SandboxUsdt.sol with the solc npm package (its WebAssembly build, nothing downloaded). */
export function compileSandboxToken(): TokenArtifact {
  const input = {
    language: 'Solidity',
    sources: { 'SandboxUsdt.sol': { content: readFileSync(TOKEN_SOURCE_PATH, 'utf8') } },
    settings: { evmVersion: EVM_VERSION, optimizer: { enabled: true, runs: 200 }, outputSelection: { '*': { SandboxUsdt: ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (output.errors ?? []).filter((entry) => entry.severity === 'error');
  if (errors.length > 0) throw new Error(`SandboxUsdt.sol does not compile:\n${errors.map((entry) => entry.formattedMessage).join('\n')}`);
  const contract = output.contracts!['SandboxUsdt.sol']!.SandboxUsdt!;
  return { contractName: 'SandboxUsdt', compiler: solc.version(), evmVersion: EVM_VERSION, abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

export function serializeArtifact(artifact: TokenArtifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}
