import { parseArgs, type ParseArgsConfig } from "node:util";
import { EXIT_LOCK_OCUPADO, LockOcupadoError } from "../publish/lock.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; strict: true; allowPositionals: false }>>["values"];

/**
 * The options of a command: `-h`/`--help` prints its usage and exits 0; an unknown or malformed
 * option prints what is wrong and the usage, and exits 2.
 */
export function cliOptions<O extends Options>(options: O, usage: string): Values<O> {
  return cliArgs(options, usage, false).values;
}

/** cliOptions for a command that also takes arguments (`npm run desfazer -- COMMIT`): its values and its arguments. */
export function cliArgs<O extends Options>(options: O, usage: string, posicionais = true): { values: Values<O>; positionals: string[] } {
  let values: Values<O> & { help?: boolean };
  let positionals: string[];
  try {
    const r = parseArgs({ options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: posicionais });
    values = r.values as Values<O> & { help?: boolean };
    positionals = r.positionals;
  } catch (err) {
    console.error(`${mensagem(err as Error & { code?: string })}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    console.log(usage);
    process.exit(0);
  }
  return { values, positionals };
}

/** Node's parseArgs speaks English; the operator reads Portuguese. */
function mensagem(err: Error & { code?: string }): string {
  const opt = /'([^']+)'/.exec(err.message)?.[1] ?? "";
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `opção desconhecida: ${opt}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return `valor inválido ou ausente para a opção ${opt}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `argumento inesperado: ${opt}`;
    default:
      return `opções inválidas: ${err.message}`;
  }
}

/** The option every command that writes the data directory takes: fail at once instead of waiting for its lock. */
export const SEM_ESPERA = { "sem-espera": { type: "boolean" } } as const;
export const USAGE_SEM_ESPERA = `  --sem-espera   se outra execução estiver usando o diretório de dados, sai na hora (código 75)
                 dizendo qual é, em vez de esperar ela terminar`;

/** Prints a command's failure and sets its exit code: 75 when the data directory was locked (--sem-espera), else 1. */
export function falhou(err: unknown): void {
  console.error((err as Error).message);
  process.exitCode = err instanceof LockOcupadoError ? EXIT_LOCK_OCUPADO : 1;
}
