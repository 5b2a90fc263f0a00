/** `simulate --engine`, checked once for one recording and for bulk replay. */
import type { EngineId } from '../core/engines/types.js';
import { UsageError } from '../io/errors.js';
import type { Mode } from '../core/types.js';
import { engineParams, type EngineFlags } from './engine-options.js';

/** The built-in engine `--engine` names (a module has no loading rule to replay), after checking its flags. */
export function simulateEngine(flags: EngineFlags & { readonly mode: Mode }): EngineId | undefined {
  const spec = flags.engine;
  // Without --engine the recording decides; its engine's parameters are checked then.
  if (spec === undefined) return undefined;
  if (spec.kind === 'module')
    throw new UsageError(
      `--engine ${spec.path}: a module engine ranks only (search, eval, lint, test, explore); simulate replays ` +
        'the loading rule of eino, ai-sdk or mastra',
    );
  engineParams(flags, spec);
  if (spec.id !== 'eino' && flags.mode === 'native')
    throw new UsageError(`--mode native is the reference's model-native mode; the ${spec.id} engine has no modes`);
  return spec.id;
}
