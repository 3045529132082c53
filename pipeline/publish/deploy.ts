/**
 * Publishes the site directory to the gh-pages branch with the gh-pages package: only the site
 * and a .nojekyll, as one orphan commit pushed over the branch, so the branch never grows a
 * history (the data's history is main's). A deploy whose tree equals the branch's pushes nothing.
 *
 * The push replaces the branch only if it is still the commit this deploy looked at (a lease):
 * another deploy (the workflow, a developer's) that published meanwhile is never overwritten
 * blind. And a site older than the published one is refused before that: the gh-pages commit
 * names its source commit (a Source-commit trailer), and the published api/v1/index.json tells
 * when its data last changed (conferirMaisNovo). So is a site whose events would take a number
 * (seq) a consumer already read from the published eventos.json (conferirSeq).
 */
import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { REPO_ROOT } from "../config.ts";
import { PipelineError } from "../domain/errors.ts";
import { EVENTOS_PATH, FEED_PATH, loadEventos } from "../contract/eventos.ts";
import { git, gitValue, gitValueOrNull } from "../io/git.ts";
import { hasInterrupted, isControlPath, JOURNAL_NAME, STAGING_DIR } from "./journal.ts";

const require = createRequire(import.meta.url);

interface GhPages {
  publish(dir: string, options: Record<string, unknown>, callback: (err?: Error) => void): unknown;
  getCacheDir(path?: string): string;
}

/** The token that may push: GITHUB_TOKEN (Actions) or GH_TOKEN (gh CLI, locally). */
export function tokenFromEnv(env: NodeJS.ProcessEnv = process.env): string | null {
  const t = env.GITHUB_TOKEN || env.GH_TOKEN;
  return t ? t : null;
}

/**
 * How git gets the token for an https remote: an Authorization header set through git's
 * environment (GIT_CONFIG_COUNT/KEY/VALUE, as actions/checkout does), never inside the URL, so it
 * is not on any command line (visible to every process) nor in a clone's name. Basic auth with
 * the user x-access-token is the form GitHub documents for Actions and installation tokens.
 * Nothing for ssh, file and local remotes, or without a token.
 */
export function gitAuthEnv(url: string, token: string | null): Record<string, string> {
  if (!token || !/^https:\/\//i.test(url)) return {};
  const basic = Buffer.from(`x-access-token:${token}`, "utf8").toString("base64");
  return {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: `http.${new URL(url).origin}/.extraheader`,
    GIT_CONFIG_VALUE_0: `AUTHORIZATION: basic ${basic}`,
  };
}

/** The token in every form it could be printed in. */
function secretForms(token: string | null): Array<string | null> {
  return token ? [token, encodeURIComponent(token), Buffer.from(`x-access-token:${token}`, "utf8").toString("base64")] : [];
}

/** Removes every secret from a text before it is printed: the token and any credentials in a URL. */
export function maskSecrets(text: string, secrets: ReadonlyArray<string | null | undefined>): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join("***");
  out = out.split(encodeURIComponent("***")).join("***");
  return out.replace(/(https?:\/\/)[^/@\s'"]+@/gi, "$1***@");
}

/**
 * The third-party files the romaneio/ page runs in the browser (OCR engine, Portuguese data,
 * PDF reader), served from the site itself (nothing from a CDN) but not committed: ~12 MB of
 * binaries that change only with package-lock.json would weigh on every clone of the data
 * repository. buildAssets (npm run build, npm start, test sites) copies them into the gitignored
 * public/romaneio/vendor/, and deploy copies them from node_modules into the published tree, so
 * the daily workflow (npm ci, update, deploy; no build) publishes them too. Destination under
 * VENDOR_ROMANEIO_DIR -> path under node_modules/. Only the LSTM-only cores: the page runs
 * Tesseract with OEM 1, and tesseract.js picks one of these three by the browser's WebAssembly
 * features (relaxed SIMD, SIMD, neither: src/worker-script/browser/getCore.js). pdf.js's ES
 * modules are copied as .js so every static host serves them with a JavaScript type.
 */
export const VENDOR_ROMANEIO_DIR = "romaneio/vendor";
export const VENDOR_ROMANEIO: ReadonlyArray<readonly [destino: string, origem: string]> = [
  ["tesseract.esm.min.js", "tesseract.js/dist/tesseract.esm.min.js"],
  ["worker.min.js", "tesseract.js/dist/worker.min.js"],
  ["tesseract-core-lstm.wasm.js", "tesseract.js-core/tesseract-core-lstm.wasm.js"],
  ["tesseract-core-simd-lstm.wasm.js", "tesseract.js-core/tesseract-core-simd-lstm.wasm.js"],
  ["tesseract-core-relaxedsimd-lstm.wasm.js", "tesseract.js-core/tesseract-core-relaxedsimd-lstm.wasm.js"],
  ["por.traineddata.gz", "@tesseract.js-data/por/4.0.0_best_int/por.traineddata.gz"],
  ["pdf.min.js", "pdfjs-dist/build/pdf.min.mjs"],
  ["pdf.worker.min.js", "pdfjs-dist/build/pdf.worker.min.mjs"],
  // pdf.js's JPEG 2000 decoder (wasmUrl): the wasm, and the plain-JS one for a browser without WebAssembly
  ["openjpeg.wasm", "pdfjs-dist/wasm/openjpeg.wasm"],
  ["openjpeg_nowasm_fallback.js", "pdfjs-dist/wasm/openjpeg_nowasm_fallback.js"],
  ["LICENSE_OPENJPEG", "pdfjs-dist/wasm/LICENSE_OPENJPEG"],
  ["LICENSE-tesseract.js.md", "tesseract.js/LICENSE.md"],
  ["LICENSE-tesseract.js-core", "tesseract.js-core/LICENSE"],
  ["LICENSE-pdfjs-dist", "pdfjs-dist/LICENSE"],
];

/** A site with the romaneio page needs its vendor files (a site without it, none). */
async function temRomaneio(siteDir: string): Promise<boolean> {
  return (await stat(join(siteDir, "romaneio", "index.html")).catch(() => null))?.isFile() ?? false;
}

/**
 * Copies the romaneio page's vendor files from node_modules into siteDir/romaneio/vendor/ (only
 * those whose bytes differ) and returns the paths written, relative to siteDir.
 */
export async function copiarVendorRomaneio(siteDir: string, nodeModules = join(REPO_ROOT, "node_modules")): Promise<string[]> {
  const escritos: string[] = [];
  for (const [destino, origem] of VENDOR_ROMANEIO) {
    const de = join(nodeModules, origem);
    const rel = `${VENDOR_ROMANEIO_DIR}/${destino}`;
    const para = join(siteDir, ...rel.split("/"));
    const novo = await readFile(de).catch(() => null);
    if (!novo) {
      throw new PipelineError({ stage: "publish", reason: `romaneio: falta ${de}, arquivo de terceiros que a página romaneio/ serve (rode npm ci)` });
    }
    const velho = await readFile(para).catch(() => null);
    if (velho?.equals(novo)) continue;
    await mkdir(dirname(para), { recursive: true });
    await copyFile(de, para);
    escritos.push(rel);
  }
  return escritos;
}

/** Who signs the gh-pages commit: the git identity from the environment or config, else a fixed one. */
async function identity(cwd: string, env: NodeJS.ProcessEnv): Promise<{ name: string; email: string }> {
  const name = env.GIT_COMMITTER_NAME || env.GIT_AUTHOR_NAME || (await gitValueOrNull(cwd, ["config", "user.name"])) || "Cotação Aberta";
  const email =
    env.GIT_COMMITTER_EMAIL || env.GIT_AUTHOR_EMAIL || (await gitValueOrNull(cwd, ["config", "user.email"])) || "cotacao-aberta@users.noreply.github.com";
  return { name, email };
}

export interface DeployOptions {
  /** the site root to publish (public/) */
  dir: string;
  /** repository to push to; default: the URL of `origin` of the repository at cwd */
  repo?: string;
  branch?: string;
  /** the repository the deploy is made from (for the origin URL and the commit being published) */
  cwd?: string;
  message?: string;
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /**
   * Publish even over a site that looks newer (conferirMaisNovo): the maintainer's way back from
   * a published mistake when no clone at hand holds the commit that was deployed. The lease stays.
   */
  substituirMaisNovo?: boolean;
  /** The bound of the fetches of origin's history (PRAZO_DA_BUSCA_MS; tests set a short one). */
  prazoDaBuscaMs?: number;
  /** Test-only: runs after every check, right before the push (another deploy of a race goes here). */
  antesDoEnvio?: () => Promise<void>;
}

export interface DeployResult {
  published: boolean;
  branch: string;
  /** the commit now at the top of the branch */
  commit: string;
  files: number;
  /** the commit of `cwd` the site was published from (null outside a repository) */
  source: string | null;
}

/**
 * What gh-pages copies: every file but dotfiles (the data directory's lock, an interrupted
 * publish's staging and journal are dotfiles at the root) and `*.tmp-PID` temp files.
 */
const SRC = ["**/*", "!**/*.tmp-[0-9]*"];

/** Whether gh-pages copies the file at `rel` (relative to the site root): SRC, dotfiles: false. */
function publicado(rel: string): boolean {
  const parts = rel.split("/");
  return !parts.some((s) => s.startsWith(".")) && !isControlPath(rel) && !/\.tmp-[0-9]/.test(parts[parts.length - 1] ?? "");
}

async function countFiles(dir: string): Promise<number> {
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const rel = relative(dir, join(e.parentPath, e.name)).split(sep).join("/");
    if (e.isFile() && publicado(rel)) n++;
  }
  return n;
}

/** The trailer of the gh-pages commit naming the commit of main its site was built from. */
const SOURCE_TRAILER = "Source-commit";

/** The commit a published site came from: its trailer, or the subject older deploys wrote. */
export function fonteDoPublicado(message: string): string | null {
  const trailer = new RegExp(`^${SOURCE_TRAILER}: ([0-9a-f]{40}(?:[0-9a-f]{24})?)$`, "m").exec(message);
  if (trailer) return trailer[1]!;
  return /^Deploy site from ([0-9a-f]{7,40})$/m.exec(message)?.[1] ?? null;
}

/**
 * When a site's data last changed: api/v1/index.json's `atualizado` (the newest of its series').
 * Also reads status.json's (when the sources' state last changed): the same field.
 */
export function atualizadoDoSite(indexJson: string | null): string | null {
  if (indexJson === null) return null;
  try {
    const v = (JSON.parse(indexJson) as { atualizado?: unknown }).atualizado;
    return typeof v === "string" && Number.isFinite(Date.parse(v)) ? v : null;
  } catch {
    return null;
  }
}

/** An event as a consumer keeps it: its number and its id. */
export interface EventoNumerado {
  seq: number;
  id: string;
}

/**
 * The numbered events of a published eventos.json (the gh-pages commit's text). Read leniently,
 * unlike the site's own (loadEventos): only seq and id matter here, and a file published under an
 * older catalogue (a series since taken out) breaks today's schema while its numbers stand. null
 * when there is no list to read. A file from before `seq` gives none: no consumer read a number
 * from it (the feed has none, webhooks carry main's), and numbering it here as update numbers its
 * own copy (numerarLegado: the newest is the count) would give the same event another number
 * whenever main's copy was trimmed past it, refusing every later deploy for numbers nobody read.
 */
export function eventosPublicados(texto: string | null): EventoNumerado[] | null {
  if (texto === null) return null;
  let doc: unknown;
  try {
    doc = JSON.parse(texto);
  } catch {
    return null;
  }
  const lista = (doc as { eventos?: unknown } | null)?.eventos;
  if (!Array.isArray(lista)) return null;
  return lista.flatMap((e: { seq?: unknown; id?: unknown } | null) =>
    typeof e?.id === "string" && Number.isInteger(e.seq) ? [{ seq: e.seq as number, id: e.id }] : [],
  );
}

/** What conferirSeq found wrong: published seqs this site gives to other events, or lacks. */
export interface SeqReusado {
  /** a seq both lists have, with another id here */
  trocados: Array<{ seq: number; publicado: string; aqui: string }>;
  /** published events above this site's newest seq, newest first */
  ausentes: EventoNumerado[];
  /** this site's newest seq (0: no events) and the published one's */
  topo: number;
  topoPublicado: number;
}

/**
 * Whether the site's events keep every number the published ones gave: a consumer keeps the
 * highest seq it read, N, and takes as new only what comes above it. A seq given to another
 * event, or a list whose newest is below N (a plain git revert of a data commit takes
 * eventos.json back too, and the next run numbers other events from there), makes events it
 * never sees as new. null when nothing is wrong.
 */
export function conferirSeq(aqui: readonly EventoNumerado[], publicados: readonly EventoNumerado[]): SeqReusado | null {
  const porSeq = new Map(aqui.map((e) => [e.seq, e.id]));
  const topo = Math.max(0, ...aqui.map((e) => e.seq));
  const topoPublicado = Math.max(0, ...publicados.map((e) => e.seq));
  const trocados = publicados.flatMap((p) => {
    const id = porSeq.get(p.seq);
    return id !== undefined && id !== p.id ? [{ seq: p.seq, publicado: p.id, aqui: id }] : [];
  });
  const ausentes = publicados.filter((p) => p.seq > topo).sort((a, b) => b.seq - a.seq);
  return trocados.length || ausentes.length ? { trocados: trocados.sort((a, b) => b.seq - a.seq), ausentes, topo, topoPublicado } : null;
}

/** A path or URL as a shell word. */
const palavra = (s: string) => (/^[\w./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** A `git revert` between the published commit and this one that took eventos.json back. */
export interface RevertDeDados {
  /** the revert commit and its subject */
  revert: string;
  assunto: string;
  /** the commit it reverts */
  revertido: string;
}

/**
 * The plain `git revert`s since the published commit (in this clone) that changed eventos.json:
 * git writes "This reverts commit <hash>." in the message. Oldest first.
 */
export async function revertsDosEventos(cwd: string, fontePublicada: string | null, eventos: string): Promise<RevertDeDados[]> {
  const publicada = fontePublicada ? await conhecer(cwd, fontePublicada) : null;
  if (!publicada) return [];
  const saida = await gitValueOrNull(cwd, ["log", "--reverse", "--format=%H%x00%s%x00%b%x1e", `${publicada}..HEAD`, "--", eventos]);
  return (saida ?? "").split("\x1e").flatMap((bloco) => {
    const [revert, assunto, corpo] = bloco.trim().split("\0");
    const revertido = /This reverts commit ([0-9a-f]{40})/.exec(corpo ?? "")?.[1];
    return revert && revertido ? [{ revert, assunto: assunto ?? "", revertido }] : [];
  });
}

/** The refusal of a site whose events reuse or drop published seqs (conferirSeq), with the commands that fix it. */
function recusaDoSeq(
  r: SeqReusado,
  c: { branch: string; fonte: string | null; fontePublicada: string | null; conhecida: boolean; reverts: readonly RevertDeDados[]; remoto: string; dirRel: string },
): string {
  const curto = (s: string | null) => (s ? s.slice(0, 12) : "desconhecido");
  const linhas = [
    ...r.ausentes.map((e) => ({ seq: e.seq, texto: `  seq ${e.seq}: publicado ${e.id}, ausente deste site` })),
    ...r.trocados.map((t) => ({ seq: t.seq, texto: `  seq ${t.seq}: publicado ${t.publicado}, neste site ${t.aqui}` })),
  ].sort((a, b) => b.seq - a.seq);
  const lista = linhas.slice(0, 10).map((l) => l.texto).join("\n");
  const mais = linhas.length > 10 ? `\n  ... e mais ${linhas.length - 10}` : "";
  const oQue = [
    r.ausentes.length
      ? `não tem eventos já publicados no ${c.branch} (o mais novo daqui é o seq ${r.topo}${r.topo === 0 ? ", nenhum evento" : ""}; o publicado, o seq ${r.topoPublicado})`
      : null,
    r.trocados.length ? `dá a outros eventos números (seq) já publicados no ${c.branch}` : null,
  ]
    .filter(Boolean)
    .join(" e ");
  const arquivo = (rel: string) => palavra(c.dirRel ? `${c.dirRel}/${rel}` : rel);
  const restaurar =
    `git fetch ${palavra(c.remoto)} ${palavra(c.branch)} && git show FETCH_HEAD:${EVENTOS_PATH} > ${arquivo(EVENTOS_PATH)} && ` +
    `git show FETCH_HEAD:${FEED_PATH} > ${arquivo(FEED_PATH)}`;
  // the events restored alone tell what the published data said: after a revert, or over data this
  // clone never had, a value no longer on the site would stay the latest news, and nothing would
  // tell subscribers it went back (what npm run desfazer's events are for)
  const caminho = c.reverts.length
    ? c.reverts
        .map((v) => `o commit ${curto(v.revert)} ("${v.assunto}") é um git revert do ${curto(v.revertido)}, já publicado, e voltou também os eventos`)
        .join("; ") +
      `. Desfaça o revert e desfaça os dados pelo caminho que avisa os assinantes: ` +
      [...c.reverts]
        .reverse()
        .map((v) => `git revert --no-edit ${curto(v.revert)}`)
        .join(" && ") +
      ` && ${c.reverts.map((v) => `npm run desfazer -- ${curto(v.revertido)}`).join(" && ")} ` +
      `(${c.reverts.length > 1 ? "do commit mais novo ao mais antigo; " : ""}ele volta os dados e põe, depois do seq ${r.topoPublicado}, eventos que dizem o que voltou; ` +
      `se commits posteriores mudaram os mesmos arquivos, o git revert para num conflito: fique com o eventos.json e o feed.xml publicados), ` +
      `commite como ele sugere e rode npm run deploy. `
    : c.fontePublicada && !c.conhecida
      ? `O site publicado veio do commit ${curto(c.fontePublicada)}, que este clone não tem: os eventos publicados contam os dados dele. ` +
        `Leve-o ao main (git push do clone que o tem, depois git pull aqui) e rode o update de novo sobre ele. `
      : "";
  return (
    `deploy: o eventos.json deste site (commit ${curto(c.fonte)}) ${oQue}; site publicado do commit ${curto(c.fontePublicada)}:\n${lista}${mais}\n` +
    `quem guarda o maior seq já lido (${r.topoPublicado}) nunca veria como novos os eventos que levassem esses números, então nada foi publicado ` +
    `(um git revert de um commit de dados já publicado volta também o eventos.json). ` +
    caminho +
    `Só quando os dados deste site já têm tudo o que os eventos publicados contam (o eventos.json voltou sozinho, num merge ou checkout), ` +
    `restaure os dois arquivos do site publicado: ${restaurar} ` +
    `e commite os dois (git commit -m "Eventos publicados restaurados" -- ${arquivo(EVENTOS_PATH)} ${arquivo(FEED_PATH)}); ` +
    `depois rode o update de novo (ou npm run deploy): os eventos seguintes recebem números depois do seq ${r.topoPublicado}. ` +
    `Com dados que voltaram, isso deixaria um valor que o site não tem como a última notícia dos eventos, sem nenhum evento que diga que ele voltou. ` +
    `Para desfazer dados publicados, use npm run desfazer -- COMMIT no lugar de git revert: ele mantém os eventos e avisa o que voltou`
  );
}

const isAncestor = async (cwd: string, a: string, b: string) =>
  (await gitValueOrNull(cwd, ["merge-base", "--is-ancestor", a, b])) !== null;

const conhecer = (cwd: string, sha: string) => gitValueOrNull(cwd, ["rev-parse", "--verify", "--quiet", `${sha}^{commit}`]);

/** How far back a shallow clone fetches main's history to find the published commit: steps, in commits. */
const PASSOS_DO_HISTORICO = [50, 1000] as const;

/**
 * How long the fetches of that search may take together. git has no timeout of its own on the
 * git protocol or ssh (nor on https past http.lowSpeedTime): an origin that accepts and never
 * answers would hold the deploy until the workflow step's 10 minutes, and nothing would be
 * published. Two minutes is room for the 1000 commits of a data repository on a runner.
 */
export const PRAZO_DA_BUSCA_MS = 120_000;

/** The signals that end this process and so must end a git of its own group (gitComPrazo). */
const SINAIS_REPASSADOS = ["SIGINT", "SIGTERM", "SIGHUP"] as const satisfies readonly NodeJS.Signals[];

/** A git that did not finish in time (gitComPrazo). */
class PrazoEsgotado extends Error {}

/** "1,5 s", "120 s": a bound as the log says it. */
const segundos = (ms: number) => `${(ms / 1000).toLocaleString("pt-BR", { maximumFractionDigits: 1 })} s`;

/**
 * git, ended when it passes `prazoMs`: its whole process group (git fetch runs git-upload-pack,
 * git-remote-https, ssh under it, and ending git alone leaves them waiting on the network), first
 * with SIGTERM, on which git deletes its lock files (shallow.lock, a ref's .lock), so the clone's
 * next fetch or push is not blocked; SIGKILL only if it outlives that by 5 s. A group of its own
 * does not get the terminal's Ctrl-C: while it runs, a SIGINT, SIGTERM or SIGHUP to this process,
 * or its exit, ends the group too, and the signal then does what it would have done.
 */
function gitComPrazo(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv, prazoMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const filho = spawn("git", [...args], { cwd, env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: "0" }, stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    filho.stderr.setEncoding("utf8").on("data", (d: string) => {
      if (stderr.length < 64 * 1024) stderr += d;
    });
    const grupo = (sinal: NodeJS.Signals) => {
      try {
        process.kill(-filho.pid!, sinal);
      } catch {
        // the group is gone already
      }
    };
    const aoSair = () => grupo("SIGTERM");
    const repasses = SINAIS_REPASSADOS.map((sinal) => {
      const repassar = () => {
        grupo(sinal);
        soltar();
        // no other handler: the default one (this process ends by the signal)
        if (process.listenerCount(sinal) === 0) process.kill(process.pid, sinal);
      };
      process.on(sinal, repassar);
      return [sinal, repassar] as const;
    });
    process.on("exit", aoSair);
    const soltar = () => {
      for (const [sinal, repassar] of repasses) process.off(sinal, repassar);
      process.off("exit", aoSair);
    };
    let esgotado = false;
    let matar: NodeJS.Timeout | undefined;
    const relogio = setTimeout(() => {
      esgotado = true;
      grupo("SIGTERM");
      matar = setTimeout(() => grupo("SIGKILL"), 5000);
    }, prazoMs);
    filho.on("error", (err) => {
      clearTimeout(relogio);
      soltar();
      reject(err);
    });
    filho.on("close", (code, signal) => {
      clearTimeout(relogio);
      clearTimeout(matar);
      soltar();
      if (esgotado) return reject(new PrazoEsgotado(`git ${args[0]} interrompido depois de ${segundos(prazoMs)}`));
      if (code === 0) return resolve();
      reject(Object.assign(new Error(`git ${args.join(" ")} falhou (${signal ?? `código ${code}`})`), { stderr }));
    });
  });
}

/** What looking for the published site's source commit on origin found. */
interface Busca {
  /** the commit, full, when this clone has it now */
  conhecida: string | null;
  /** origin's branch it was looked for in (main), when the fetch worked and did not find it */
  ausenteDe: string | null;
}

/**
 * Finds the published site's source commit in this clone, fetching origin's branch (the one this
 * clone's branch tracks) when it is not here: a clone not pulled gets the commits pushed since,
 * and a shallow clone (the workflow's depth-1 checkout, where the delivery record's commit or any
 * code pushed after a deploy leaves the deployed commit out) is deepened step by step. Without it
 * the data's dates decide, and they cannot tell a revert of a wrong number, or a series taken
 * out, from an older site: the workflow would refuse to publish the fix and leave the wrong
 * number up. A fetch that fails leaves the dates to decide.
 */
async function buscarFontePublicada(
  cwd: string,
  sha: string,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
  mask: (s: string) => string,
  prazoMs: number,
): Promise<Busca> {
  const ja = await conhecer(cwd, sha);
  if (ja) return { conhecida: ja, ausenteDe: null };
  const ramo = await gitValueOrNull(cwd, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const origem = await gitValueOrNull(cwd, ["remote", "get-url", "origin"]);
  if (!ramo || !origem) return { conhecida: null, ausenteDe: null };
  // the branch this one tracks on origin (actions/checkout's main tracks origin's main), else its namesake
  const remoto = (await gitValueOrNull(cwd, ["config", `branch.${ramo}.remote`])) === "origin" ? await gitValueOrNull(cwd, ["config", `branch.${ramo}.merge`]) : null;
  const ref = remoto ?? `refs/heads/${ramo}`;
  const nome = ref.replace(/^refs\/heads\//, "");
  const auth = { ...env, ...gitAuthEnv(origem, tokenFromEnv(env)) };
  const raso = async () => (await gitValueOrNull(cwd, ["rev-parse", "--is-shallow-repository"])) === "true";
  // a clone that is not shallow fetches once (what was pushed since its last fetch)
  const passos: ReadonlyArray<number | null> = (await raso()) ? PASSOS_DO_HISTORICO : [null];
  // one bound for all the steps together
  const limite = Date.now() + prazoMs;
  for (const n of passos) {
    log(`deploy: buscando o commit ${sha.slice(0, 12)} no histórico do origin (${nome}${n ? `, ${n} commits mais fundo` : ""})`);
    try {
      await gitComPrazo(cwd, ["fetch", "--quiet", "--no-tags", ...(n ? [`--deepen=${n}`] : []), "origin", ref], auth, Math.max(0, limite - Date.now()));
    } catch (err) {
      if (err instanceof PrazoEsgotado) {
        log(
          mask(
            `deploy: o origin (${origem}) não respondeu em ${segundos(prazoMs)} (rede ou servidor parado); ` +
              `a busca foi interrompida e quem decide são as datas dos dados`,
          ),
        );
        return { conhecida: null, ausenteDe: null };
      }
      const e = err as Error & { stderr?: string };
      log(mask(`deploy: não foi possível buscar o ${nome} do origin (${(e.stderr || e.message).trim()}); quem decide são as datas dos dados`));
      return { conhecida: null, ausenteDe: null };
    }
    const achada = await conhecer(cwd, sha);
    if (achada) return { conhecida: achada, ausenteDe: null };
    if (!(await raso())) break;
  }
  return { conhecida: null, ausenteDe: nome };
}

/**
 * Whether the site about to be published is older than the one on the branch: null when it may
 * go, else the pt-BR reason it may not. Git history decides when the published site's source
 * commit is in this clone or in origin's history (buscarFontePublicada fetches it): a commit it
 * descends from may go (also one that undoes data on purpose, a revert), one it is an ancestor
 * of may not. Otherwise (a commit pushed nowhere, a site without the trailer, diverged
 * histories, no network) the data decides: data that last changed before the published data's
 * is older, whatever the commits. Data of the same date (index.json's `atualizado` changes only
 * with a price) is older when its status.json is: a run that brought no price but marked a
 * source failing, or back, is newer than the one before it. (The events' seq, the third clock
 * of a site, is held apart by conferirSeq, whatever the dates or history say.)
 */
export async function conferirMaisNovo(c: {
  cwd: string;
  branch: string;
  /** the commit being published (full) */
  fonte: string | null;
  /** its data's `atualizado` */
  atualizado: string | null;
  /** the published site's source commit, as its gh-pages commit names it */
  fontePublicada: string | null;
  /** the published data's `atualizado` */
  atualizadoPublicado: string | null;
  /** its status.json's `atualizado` (when the sources' state last changed) */
  status?: string | null;
  /** the published status.json's `atualizado` */
  statusPublicado?: string | null;
  log: (line: string) => void;
  /** for the fetch from origin: the token (GITHUB_TOKEN, GH_TOKEN) */
  env?: NodeJS.ProcessEnv;
  mask?: (s: string) => string;
  /** the bound of the fetches from origin together (PRAZO_DA_BUSCA_MS) */
  prazoDaBuscaMs?: number;
}): Promise<string | null> {
  const curto = (s: string | null) => (s ? s.slice(0, 12) : "desconhecido");
  const busca: Busca =
    c.fontePublicada && c.fonte
      ? await buscarFontePublicada(c.cwd, c.fontePublicada, c.env ?? process.env, c.log, c.mask ?? ((s) => s), c.prazoDaBuscaMs ?? PRAZO_DA_BUSCA_MS)
      : { conhecida: null, ausenteDe: null };
  const conhecida = busca.conhecida;
  if (c.fonte && conhecida) {
    if (conhecida === c.fonte) {
      c.log(`deploy: o site publicado veio deste mesmo commit (${curto(c.fonte)})`);
      return null;
    }
    if (await isAncestor(c.cwd, conhecida, c.fonte)) {
      c.log(`deploy: este commit (${curto(c.fonte)}) vem depois do que está publicado (${curto(conhecida)})`);
      return null;
    }
    if (await isAncestor(c.cwd, c.fonte, conhecida)) {
      return (
        `deploy: o ${c.branch} já tem o site do commit ${curto(conhecida)}, mais novo que este (${curto(c.fonte)} vem antes dele no histórico); ` +
        `publicar agora trocaria o site novo por um antigo, então nada foi publicado. Atualize este clone (git pull) e rode npm run deploy de novo; ` +
        `para voltar o site de propósito, faça um commit que desfaça a mudança (git revert) e publique esse commit`
      );
    }
    c.log(`deploy: o site publicado veio do commit ${curto(conhecida)}, de outro ramo do histórico; quem decide são as datas dos dados`);
  } else if (c.fontePublicada) {
    c.log(
      busca.ausenteDe
        ? `deploy: o site publicado veio do commit ${curto(c.fontePublicada)}, que não está no ${busca.ausenteDe} do origin; quem decide são as datas dos dados`
        : `deploy: o site publicado veio do commit ${curto(c.fontePublicada)}, que este clone não tem; quem decide são as datas dos dados`,
    );
  }
  const oQueFazer = () =>
    (busca.ausenteDe
      ? // git pull cannot bring it: it was published from commits never pushed to this branch
        `O commit ${curto(c.fontePublicada)} desse site não está no ${busca.ausenteDe} do origin (foi publicado de um clone com commits não enviados, ou de outro branch): ` +
        `leve-o ao ${busca.ausenteDe} (git push do clone que o tem, ou o merge do branch dele) e rode npm run deploy de novo, ou publique daquele clone. `
      : `Traga os dados novos (git pull) e rode npm run deploy de novo. `) +
    `Se a volta é de propósito (dados errados publicados): ` +
    `publique de um clone que tenha o commit ${curto(c.fontePublicada)} (um commit que desfaz o erro vem depois dele e passa), ` +
    `ou use npm run deploy -- --substituir-mais-novo`;
  const dados = c.atualizado && c.atualizadoPublicado ? Math.sign(Date.parse(c.atualizado) - Date.parse(c.atualizadoPublicado)) : null;
  if (dados === -1) {
    return (
      `deploy: o ${c.branch} tem dados de ${c.atualizadoPublicado} (site do commit ${curto(c.fontePublicada)}), mais novos que os deste site ` +
      `(${c.atualizado}, commit ${curto(c.fonte)}); publicar agora trocaria dados novos por antigos, então nada foi publicado. ` +
      oQueFazer()
    );
  }
  if (dados !== null) c.log(`deploy: dados deste site de ${c.atualizado}; os publicados, de ${c.atualizadoPublicado}`);
  // same data date (or none on either side): the sources' state breaks the tie
  if ((dados === 0 || (!c.atualizado && !c.atualizadoPublicado)) && c.status && c.statusPublicado) {
    if (Date.parse(c.status) < Date.parse(c.statusPublicado)) {
      return (
        `deploy: no ${c.branch} (site do commit ${curto(c.fontePublicada)}) e neste site (commit ${curto(c.fonte)}) os dados têm a mesma data ` +
        `(${c.atualizado ?? "nenhuma"}), mas o status.json publicado é de ${c.statusPublicado}, mais novo que o deste site (${c.status}): ` +
        `publicar agora voltaria o estado das fontes a um anterior, então nada foi publicado. ` +
        oQueFazer()
      );
    }
    c.log(`deploy: status.json deste site de ${c.status}; o publicado, de ${c.statusPublicado}`);
  }
  return null;
}

/**
 * The command that clears the marks (run from the repository's top): one git update-index per
 * flag, since given --no-assume-unchanged and --no-skip-worktree together it clears only the
 * first; past 10 files, every file of the site directory through ls-files (a sparse checkout
 * marks each file it leaves out, thousands of names for one line).
 */
function tirarMarcas(marcados: ReadonlyArray<{ caminho: string; flags: readonly string[] }>, prefixo: string): string {
  return ["assume-unchanged", "skip-worktree"]
    .flatMap((flag) => {
      const estes = marcados.filter((m) => m.flags.includes(flag)).map((m) => m.caminho);
      if (estes.length === 0) return [];
      return [
        estes.length <= 10
          ? `git update-index --no-${flag} -- ${estes.map(palavra).join(" ")}`
          : `git ls-files -z -- ${palavra(prefixo || ".")} | xargs -0 git update-index --no-${flag} --`,
      ];
    })
    .join(" && ");
}

/**
 * Checks that the site directory is exactly what the commit HEAD of `cwd` holds: every file the
 * deploy would publish is committed unchanged, none is missing, none is extra (untracked or
 * gitignored). A hand edit, a half-done build or a file dropped in by mistake would otherwise
 * reach users without a commit, nor the validate that goes with it. Dotfiles and temp files are
 * not published (SRC) and not looked at; nor are the romaneio page's vendor files, which the
 * deploy takes from node_modules whatever the directory holds. A symlink is refused even when
 * committed. Returns HEAD.
 */
export async function conferirArvoreDoDeploy(dir: string, cwd: string, log: (line: string) => void = () => {}): Promise<string> {
  const topo = await gitValueOrNull(cwd, ["rev-parse", "--show-toplevel"]);
  const topoDoSite = await gitValueOrNull(dir, ["rev-parse", "--show-toplevel"]);
  if (!topo || topo !== topoDoSite) {
    throw new PipelineError({
      stage: "publish",
      reason: `deploy: ${dir} não está no repositório git de ${cwd}; sem um commit não há como saber que este site é o validado, então nada foi publicado`,
    });
  }
  const head = await gitValueOrNull(cwd, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  if (!head) throw new PipelineError({ stage: "publish", reason: `deploy: o repositório em ${cwd} ainda não tem commit; commite o site antes de publicar` });
  log(`deploy: conferindo se ${dir} é exatamente o commit ${head.slice(0, 12)} (nada modificado, apagado ou a mais)`);
  const prefixo = await gitValue(dir, ["rev-parse", "--show-prefix"]);
  // ignored files one by one (traditional with all): "matching" would name only a directory the
  // .gitignore names (romaneio/vendor/), hiding an extra file inside it
  const saida = await git(dir, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=traditional", "--no-renames", "--", "."]);
  const vendor = (await temRomaneio(dir)) ? new Set(VENDOR_ROMANEIO.map(([d]) => `${VENDOR_ROMANEIO_DIR}/${d}`)) : new Set<string>();
  const diferentes: string[] = [];
  const listados = new Set<string>();
  for (const item of saida.split("\0")) {
    if (item.length < 4) continue;
    const xy = item.slice(0, 2);
    const caminho = item.slice(3);
    const rel = caminho.startsWith(prefixo) ? caminho.slice(prefixo.length) : caminho;
    if (!publicado(rel) || (xy === "!!" && vendor.has(rel))) continue;
    const como =
      xy === "??"
        ? "novo, fora do commit"
        : xy === "!!"
          ? "ignorado pelo .gitignore, fora do commit"
          : xy[0] === "A"
            ? "novo, no índice, fora do commit"
            : xy.includes("D")
              ? "apagado"
              : "modificado";
    diferentes.push(`${caminho} (${como})`);
    listados.add(rel);
  }
  // git status does not look at a file marked assume-unchanged (ls-files -v: a lowercase letter) or
  // skip-worktree ('S'; a sparse checkout marks so the files it leaves out): edited or deleted, it
  // is "unchanged", and gh-pages would publish the edit or leave the file out
  const marcados: Array<{ caminho: string; flags: string[] }> = [];
  for (const item of (await git(dir, ["ls-files", "-v", "-z", "--full-name", "--", "."])).split("\0")) {
    if (item.length < 3) continue;
    const tag = item[0]!;
    const caminho = item.slice(2);
    const rel = caminho.startsWith(prefixo) ? caminho.slice(prefixo.length) : caminho;
    const flags = [tag !== tag.toUpperCase() ? "assume-unchanged" : null, tag.toUpperCase() === "S" ? "skip-worktree" : null].filter((f) => f !== null);
    if (flags.length === 0 || !publicado(rel) || listados.has(rel)) continue;
    diferentes.push(`${caminho} (marcado ${flags.join(" e ")}: o git não confere se ele mudou)`);
    marcados.push({ caminho, flags });
    listados.add(rel);
  }
  // git holds a symlink as its target's name: a committed link stays "unchanged" while gh-pages copies
  // whatever it points to (a file edited outside the site, a whole directory), and validate, which
  // reads only regular files and directories, never saw it
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const rel = relative(dir, join(e.parentPath, e.name)).split(sep).join("/");
    if (!e.isSymbolicLink() || !publicado(rel) || listados.has(rel) || vendor.has(rel)) continue;
    diferentes.push(`${prefixo}${rel} (link simbólico: o deploy publicaria o arquivo para onde ele aponta, que não é o que o commit guarda do site)`);
  }
  if (diferentes.length > 0) {
    const lista = diferentes.slice(0, 10).map((p) => `  ${p}`).join("\n");
    const mais = diferentes.length > 10 ? `\n  ... e mais ${diferentes.length - 10}` : "";
    throw new PipelineError({
      stage: "publish",
      reason:
        `deploy: ${dir} difere do commit ${head.slice(0, 12)} em ${diferentes.length} arquivo(s); o deploy publica só um site commitado ` +
        `(o que o workflow valida antes do commit), então nada foi publicado:\n${lista}${mais}\n` +
        (marcados.length
          ? `Tire a marca dos arquivos marcados (${tirarMarcas(marcados, prefixo)}; ` +
            `numa cópia esparsa, git sparse-checkout disable) e veja o que mudou neles (git status). `
          : "") +
        `Commite o que deve ir para o site (npm run validate, depois npm run changelog -- --commit; um link simbólico, troque pelo arquivo) ou desfaça as mudanças ` +
        `(git restore --staged --worktree -- ${prefixo || "."} e apague os arquivos a mais), e rode npm run deploy de novo`,
    });
  }
  return head;
}

/**
 * Publishes `dir` to `branch` of `repo`. Every error is rethrown with the token and URL
 * credentials masked, so a failed push never prints them.
 */
export async function deploy(opts: DeployOptions): Promise<DeployResult> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const cwd = opts.cwd ?? process.cwd();
  const branch = opts.branch ?? "gh-pages";
  const token = tokenFromEnv(env);
  const mask = (s: string) => maskSecrets(s, secretForms(token));

  const st = await stat(opts.dir).catch(() => null);
  if (!st?.isDirectory()) throw new PipelineError({ stage: "publish", reason: `deploy: o diretório do site não existe: ${opts.dir} (rode npm run update ou npm run build antes)` });
  // npm run deploy finishes or rolls one back first, under the lock; any other caller must too
  if (await hasInterrupted(opts.dir)) {
    throw new PipelineError({
      stage: "publish",
      reason:
        `deploy: ${opts.dir} tem uma publicação interrompida (${JOURNAL_NAME} ou ${STAGING_DIR}/): o site está entre duas versões, então nada foi publicado. ` +
        `Rode npm run validate (conclui ou desfaz a publicação) e depois npm run deploy`,
    });
  }
  let files = await countFiles(opts.dir);
  if (files === 0) throw new PipelineError({ stage: "publish", reason: `deploy: o diretório do site está vazio: ${opts.dir}` });

  let repo = opts.repo;
  if (!repo) {
    repo = (await gitValueOrNull(cwd, ["remote", "get-url", "origin"])) ?? undefined;
    if (!repo) throw new PipelineError({ stage: "publish", reason: `deploy: o repositório em ${cwd} não tem remoto "origin"; use --repo URL` });
  }
  const url: string = repo;
  const auth = gitAuthEnv(url, token);
  const source = await gitValueOrNull(cwd, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]);
  const atualizado = atualizadoDoSite(await readFile(join(opts.dir, "api", "v1", "index.json"), "utf8").catch(() => null));
  // the trailer names the full commit, so a later deploy can place it in its own history
  const message = `${opts.message ?? (source ? `Deploy site from ${source.slice(0, 12)}` : "Deploy site")}${source ? `\n\n${SOURCE_TRAILER}: ${source}` : ""}`;
  const user = await identity(cwd, env);

  // a private cache dir: gh-pages names its clone after the URL, which carries the token
  const cache = await mkdtemp(join(tmpdir(), "cotacao-deploy-"));
  // gh-pages runs git with this process's environment: the credentials go there for the run
  const overrides: Record<string, string> = { CACHE_DIR: cache, GIT_TERMINAL_PROMPT: "0", ...auth };
  const saved = Object.fromEntries(Object.keys(overrides).map((k) => [k, process.env[k]]));
  Object.assign(process.env, overrides);
  // a refusal (an older site, a lease lost) is not a failed push: thrown as is, after the cleanup
  let recusa: string | null = null;
  const publicar = async (): Promise<DeployResult> => {
    const ghpages = require("gh-pages") as GhPages;
    // the published tree gets the node_modules copies, whatever (if anything) a build left in dir
    const vendor = await temRomaneio(opts.dir);
    if (vendor) {
      const ja = await readdir(join(opts.dir, ...VENDOR_ROMANEIO_DIR.split("/"))).catch(() => [] as string[]);
      files += VENDOR_ROMANEIO.filter(([d]) => !ja.includes(d)).length;
    }
    log(`deploy: montando ${files} arquivo(s) de ${opts.dir} (commit ${source ? source.slice(0, 12) : "nenhum"}, dados de ${atualizado ?? "data desconhecida"}) para ${mask(url)} (${branch})`);
    // gh-pages reports failures only through the callback (its promise resolves either way)
    await new Promise<void>((resolve, reject) => {
      const beforeAdd = vendor ? (git: { cwd: string }) => copiarVendorRomaneio(git.cwd) : undefined;
      const options = { src: SRC, repo: url, branch, remote: "origin", dotfiles: false, nojekyll: true, history: false, push: false, message, user, beforeAdd };
      const ret = ghpages.publish(opts.dir, options, (err) => (err ? reject(err) : resolve()));
      if (ret instanceof Promise) ret.catch(reject);
    });
    const clone = ghpages.getCacheDir(url);
    const tree = await gitValue(clone, ["rev-parse", "HEAD^{tree}"]);
    // what this deploy saw of the branch (gh-pages fetched it just now): the push's lease
    const remoteCommit = await gitValueOrNull(clone, ["rev-parse", "--verify", "--quiet", `refs/remotes/origin/${branch}`]);
    if (remoteCommit) {
      const remoteTree = await gitValue(clone, ["rev-parse", `${remoteCommit}^{tree}`]);
      const raw = await gitValue(clone, ["cat-file", "-p", remoteCommit]);
      const single = !/^parent /m.test(raw);
      if (remoteTree === tree && single) {
        log(`deploy: ${branch} já tem este site (${remoteCommit.slice(0, 12)}); nada a publicar`);
        return { published: false, branch, commit: remoteCommit, files, source };
      }
      const fontePublicada = fonteDoPublicado(await gitValue(clone, ["log", "-1", "--format=%B", remoteCommit]));
      const publicadoEm = (rel: string) => gitValueOrNull(clone, ["show", `${remoteCommit}:${rel}`]);
      const atualizadoPublicado = atualizadoDoSite(await publicadoEm("api/v1/index.json"));
      log(
        `deploy: ${branch} no remoto está em ${remoteCommit.slice(0, 12)} (site do commit ${fontePublicada ? fontePublicada.slice(0, 12) : "desconhecido"}, ` +
          `dados de ${atualizadoPublicado ?? "data desconhecida"}); conferindo se este site não é mais antigo`,
      );
      recusa = await conferirMaisNovo({
        cwd,
        branch,
        fonte: source,
        atualizado,
        fontePublicada,
        atualizadoPublicado,
        status: atualizadoDoSite(await readFile(join(opts.dir, "api", "v1", "status.json"), "utf8").catch(() => null)),
        statusPublicado: atualizadoDoSite(await publicadoEm("api/v1/status.json")),
        log,
        env,
        mask,
        prazoDaBuscaMs: opts.prazoDaBuscaMs,
      });
      if (recusa && opts.substituirMaisNovo) {
        log(`deploy: --substituir-mais-novo: publicando mesmo assim sobre um site mais novo (${recusa})`);
        recusa = null;
      }
      if (recusa) return { published: false, branch, commit: remoteCommit, files, source };
      // not skipped by --substituir-mais-novo: a way back restores the published events (the refusal says how)
      const textoDosEventos = await publicadoEm(EVENTOS_PATH);
      const publicados = eventosPublicados(textoDosEventos);
      if (textoDosEventos !== null && publicados === null) {
        log(`deploy: o ${EVENTOS_PATH} publicado não é uma lista de eventos legível; não há seq publicado a conferir`);
      }
      if (publicados?.length === 0) {
        log(`deploy: o ${EVENTOS_PATH} publicado não tem evento numerado (vazio, ou de antes do seq): nenhum seq publicado a conferir`);
      } else if (publicados) {
        const aqui = ((await loadEventos(opts.dir))?.eventos ?? []).map((e) => ({ seq: e.seq, id: e.id }));
        const reusado = conferirSeq(aqui, publicados);
        if (reusado) {
          const dirRel = relative(cwd, opts.dir).split(sep).join("/");
          recusa = recusaDoSeq(reusado, {
            branch,
            fonte: source,
            fontePublicada,
            conhecida: fontePublicada !== null && (await conhecer(cwd, fontePublicada)) !== null,
            reverts: await revertsDosEventos(cwd, fontePublicada, join(opts.dir, ...EVENTOS_PATH.split("/"))),
            remoto: opts.repo ? url : "origin",
            dirRel,
          });
          return { published: false, branch, commit: remoteCommit, files, source };
        }
        log(`deploy: eventos.json: o mais novo publicado é o seq ${Math.max(0, ...publicados.map((e) => e.seq))}, e nenhum número publicado falta neste site ou é de outro evento aqui`);
      }
    } else {
      log(`deploy: ${branch} ainda não existe no remoto; este é o primeiro deploy`);
    }
    await opts.antesDoEnvio?.();
    // replaces the branch only if it is still what this deploy saw; empty = the branch must not exist yet
    const lease = `--force-with-lease=refs/heads/${branch}:${remoteCommit ?? ""}`;
    try {
      await gitValue(clone, ["push", lease, "origin", `HEAD:refs/heads/${branch}`]);
    } catch (err) {
      const msg = String((err as { stderr?: string }).stderr ?? "");
      // the lease's own refusal; any other failure (network, permissions) is reported as one
      if (!/stale info/i.test(msg)) throw err;
      recusa =
        `deploy: o ${branch} mudou no remoto durante este deploy (estava em ${remoteCommit ? remoteCommit.slice(0, 12) : "nenhum commit: branch ainda inexistente"} ` +
        `quando o site foi montado; outro deploy publicou nesse meio-tempo); nada foi publicado e o site dele ficou como está. ` +
        `Rode npm run deploy de novo: ele compara este site com o que está publicado agora`;
      return { published: false, branch, commit: remoteCommit ?? "", files, source };
    }
    const commit = await gitValue(clone, ["rev-parse", "HEAD"]);
    log(`deploy: publicado: ${branch} agora em ${commit.slice(0, 12)}, site do commit ${source ? source.slice(0, 12) : "nenhum"}, ${files} arquivo(s) e .nojekyll`);
    return { published: true, branch, commit, files, source };
  };
  let resultado: DeployResult;
  try {
    resultado = await publicar();
  } catch (err) {
    const e = err as Error & { stderr?: string };
    const detail = [e.message, e.stderr].filter(Boolean).join("\n");
    // no cause: git's error may quote the token, and only the masked text may be printed
    throw new PipelineError({ stage: "publish", reason: mask(`deploy: falha ao publicar em ${repo} (${branch}): ${detail}`) });
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await rm(cache, { recursive: true, force: true });
  }
  if (recusa) throw new PipelineError({ stage: "publish", reason: mask(recusa) });
  return resultado;
}

/**
 * Pushes the current branch of `cwd` to `origin` (token from the environment, as for deploy).
 * When the branch moved meanwhile (someone pushed code during the run), rebases once onto it
 * and pushes again, but only if the new commits upstream leave `guard` alone (the site
 * directory and the files committed with it, repo-relative): a rebase over a commit that touched
 * them would merge two trees file by file (or line by line inside a JSON file) into a site no
 * validate ever saw, and the deploy would publish it. Then nothing is pushed, the working tree
 * keeps the validated data, and the next run starts again from the new branch (a late price,
 * never a mixed one).
 */
export async function pushCurrentBranch(
  cwd: string,
  opts: { env?: NodeJS.ProcessEnv; log?: (l: string) => void; guard?: readonly string[] } = {},
): Promise<string> {
  const env = opts.env ?? process.env;
  const log = opts.log ?? (() => {});
  const guard = opts.guard ?? [];
  const token = tokenFromEnv(env);
  const mask = (s: string) => maskSecrets(s, secretForms(token));
  const branch = await gitValue(cwd, ["rev-parse", "--abbrev-ref", "HEAD"]);
  if (branch === "HEAD") throw new PipelineError({ stage: "publish", reason: "push: HEAD destacado (detached); faça checkout de um branch" });
  const origin = await gitValueOrNull(cwd, ["remote", "get-url", "origin"]);
  if (!origin) throw new PipelineError({ stage: "publish", reason: `push: o repositório em ${cwd} não tem remoto "origin"` });
  const authed = { ...env, ...gitAuthEnv(origin, token) };
  // the guarded paths as committed (object ids): what validate checked
  const guarded = async () => (guard.length ? await gitValue(cwd, ["ls-tree", "HEAD", "--", ...guard]) : "");
  let recusa: string | null = null;
  try {
    try {
      await gitValue(cwd, ["push", "origin", `HEAD:refs/heads/${branch}`], authed);
    } catch (first) {
      const msg = String((first as { stderr?: string }).stderr ?? "");
      if (!/rejected|non-fast-forward|fetch first/i.test(msg)) throw first;
      log(`push: ${branch} mudou no remoto durante a execução; aplicando o commit de dados por cima (rebase) e tentando de novo`);
      const upstream = `refs/remotes/origin/${branch}`;
      await gitValue(cwd, ["fetch", "--quiet", "origin", `+refs/heads/${branch}:${upstream}`], authed);
      // three dots: what changed upstream since the run's own base
      const tocados = guard.length ? await gitValue(cwd, ["diff", "--name-only", "--no-renames", `HEAD...${upstream}`, "--", ...guard]) : "";
      if (tocados) {
        const lista = tocados.split("\n").slice(0, 10).map((p) => `  ${p}`).join("\n");
        recusa =
          `push: ${branch} mudou no remoto e os commits novos mexem nos dados do site; juntar as duas versões daria uma árvore que ` +
          `nunca foi validada, então nada foi enviado (o próximo update refaz os dados sobre o ${branch} novo):\n${lista}\n` +
          // a runner starts from a fresh checkout; a clone that is kept would refuse every later run from this base
          `num clone que não é descartado depois da execução, volte antes ao ${branch} do remoto (o commit recusado sai, o próximo update o refaz): ` +
          `git reset --keep ${upstream.replace(/^refs\/remotes\//, "")}`;
      } else {
        const antes = await gitValue(cwd, ["rev-parse", "HEAD"]);
        const validado = await guarded();
        await gitValue(cwd, ["rebase", "--quiet", upstream], authed);
        if ((await guarded()) !== validado) {
          // cannot happen when upstream left the guarded paths alone; never push what validate did not see
          await gitValue(cwd, ["reset", "--quiet", "--keep", antes]);
          recusa = `push: o rebase mudou os dados do site em relação aos validados; nada foi enviado`;
        } else {
          await gitValue(cwd, ["push", "origin", `HEAD:refs/heads/${branch}`], authed);
        }
      }
    }
  } catch (err) {
    const e = err as Error & { stderr?: string };
    // no cause: git's error may quote the token, and only the masked text may be printed
    throw new PipelineError({ stage: "publish", reason: mask(`push: falha ao enviar ${branch} para ${origin}: ${[e.message, e.stderr].filter(Boolean).join("\n")}`) });
  }
  if (recusa) throw new PipelineError({ stage: "publish", reason: mask(recusa) });
  const head = await gitValue(cwd, ["rev-parse", "--short=12", "HEAD"]);
  log(`push: ${branch} enviado (${head})`);
  return head;
}
