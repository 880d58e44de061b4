/**
 * npm run sandbox:build-token — compiles sandbox/evm/contracts/SandboxUsdt.sol with the solc npm package and writes
 * the artifact beside it (ABI and bytecode) that the sandbox EVM nodes deploy. A test checks the two still agree.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { compileSandboxToken, serializeArtifact, TOKEN_ARTIFACT_PATH } from '../sandbox/evm/token-build';

const artifact = compileSandboxToken();
writeFileSync(TOKEN_ARTIFACT_PATH, serializeArtifact(artifact));
process.stdout.write(`wrote ${path.relative(process.cwd(), TOKEN_ARTIFACT_PATH)} (${artifact.compiler}, ${(artifact.bytecode.length - 2) / 2} bytes)\n`);
