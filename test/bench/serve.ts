/**
 * Serving figures (issues 4 and 15): the query server against nginx on loopback, 12 s × 50
 * connections per server from this process (autocannon) while each server runs in its own process(es):
 * nginx on all cores, ours in one process, ours as a cluster on all cores with the quota in the
 * primary, and the same with the quota in Redis (a redis-server started here); and the
 * dashboard's first load in Chromium (bytes and time until the prices are visible). The load
 * generator shares the machine's cores with the servers, so "all cores" is all cores minus what
 * autocannon takes: the ratios are comparable, the absolute figures are a floor. Each ratio is
 * against nginx measured in rounds alternating with that variant (`alternar`), so both see the same
 * load from the machine's other work (with Redis, its server's CPU and memory count with ours).
 * The query is measured with the bench's key (a quota of 10⁹: leases of LOTE_MAXIMO units) and
 * without a key (the address's quota, counted one request at a time, the path of anonymous
 * traffic). One more row: the query as browsers send it (Accept-Encoding: gzip, deflate, br) on the
 * cluster, against nginx on the same request header, both gzip on every request and a .gz made
 * ahead of time (gzip_static, the like of our compressed answer kept ready; nginx has no brotli here).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { gzipSync } from "node:zlib";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { freePort } from "../serve/redis.ts";
import { loadConfig, REPO_ROOT } from "../../pipeline/config.ts";
import { openChromium } from "../browser/chromium.ts";
import { startRedis } from "../serve/redis.ts";
import { LOTE_MAXIMO } from "../../pipeline/serve/quota-lotes.ts";
import { Quota, tamanhoDoLote } from "../../pipeline/serve/quota.ts";

const KEY = "chave-do-benchmark";
/** seconds each server is measured in a comparison, split into RODADAS rounds */
const DURATION = Number(process.env.BENCH_SERVE_SECONDS ?? 12);
const CONNECTIONS = 50;
/** seconds of load before a target's rounds: a fresh server (each worker of a cluster) compiles its hot path first; nginx has nothing to compile but gets the same */
const AQUECIMENTO = Number(process.env.BENCH_SERVE_WARMUP ?? 2);
/**
 * Each comparison runs in rounds that alternate the servers: on this shared machine the others' load
 * moves requests per second by ±15 % within a minute, and a ratio of two adjacent 10 s runs moved
 * with it; the median of per-round ratios holds still.
 */
const RODADAS = Math.max(1, Math.floor(Number(process.env.BENCH_SERVE_ROUNDS ?? 3)) || 1);
const SEGUNDOS_POR_RODADA = Math.max(1, Math.round(DURATION / RODADAS));


/** the process and its descendants (a cluster's workers, nginx's) */
async function arvore(pid: number): Promise<number[]> {
  const filhos = (await readFile(`/proc/${pid}/task/${pid}/children`, "utf8").catch(() => "")).trim().split(/\s+/).filter(Boolean).map(Number);
  return [pid, ...(await Promise.all(filhos.map(arvore))).flat()];
}

async function rssMb(pid: number): Promise<number> {
  let total = 0;
  for (const p of await arvore(pid)) {
    const text = await readFile(`/proc/${p}/status`, "utf8").catch(() => "");
    const m = /VmRSS:\s+(\d+) kB/.exec(text);
    if (m) total += Number(m[1]) / 1024;
  }
  return total;
}

/** CPU seconds (user + system) the process tree has used: a figure per request that the machine's other load changes less than req/s */
async function cpuS(pids: number[]): Promise<number> {
  let ticks = 0;
  for (const p of (await Promise.all(pids.map(arvore))).flat()) {
    const text = await readFile(`/proc/${p}/stat`, "utf8").catch(() => "");
    const campos = text.slice(text.lastIndexOf(")") + 2).split(" ");
    ticks += Number(campos[11] ?? 0) + Number(campos[12] ?? 0);
  }
  return ticks / 100;
}

interface Run { rps: number; p99: number; non2xx: number; errors: number; rss: number[]; cpuUs: number }
interface Alvo { url: string; pids: number[]; headers?: Record<string, string> }
interface Rodada { rps: number; p99: number; non2xx: number; errors: number; rss: number[]; cpu: number; total: number; segundos: number }

async function rodada(a: Alvo, segundos: number): Promise<Rodada> {
  const rss: number[] = [];
  const sample = async () => rss.push((await Promise.all(a.pids.map(rssMb))).reduce((x, y) => x + y, 0));
  await sample();
  const cpu0 = await cpuS(a.pids);
  const timer = setInterval(() => void sample(), 1000);
  const r = await autocannon({ url: a.url, connections: CONNECTIONS, duration: segundos, headers: a.headers ?? {} });
  clearInterval(timer);
  const cpu = (await cpuS(a.pids)) - cpu0;
  await sample();
  return { rps: r.requests.average, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors, rss, cpu, total: r.requests.total, segundos };
}

/** a target's rounds as one run: requests per second over all of them, the worst p99, CPU per request over all */
function somar(rs: Rodada[]): Run {
  const total = rs.reduce((n, r) => n + r.total, 0);
  return {
    rps: rs.reduce((n, r) => n + r.rps * r.segundos, 0) / rs.reduce((n, r) => n + r.segundos, 0),
    p99: Math.max(...rs.map((r) => r.p99)),
    non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
    errors: rs.reduce((n, r) => n + r.errors, 0),
    rss: rs.flatMap((r) => r.rss),
    cpuUs: (rs.reduce((n, r) => n + r.cpu, 0) * 1e6) / Math.max(1, total),
  };
}

/**
 * The targets measured in alternation: each warmed up, then RODADAS rounds in which each runs once
 * (the order turned every round), so a change in the machine's other load falls on all of them
 * alike. Returns each target's run and its requests per second in each round, for per-round ratios.
 */
async function alternar(alvos: Alvo[]): Promise<{ run: Run; porRodada: number[] }[]> {
  for (const a of alvos) if (AQUECIMENTO > 0) await autocannon({ url: a.url, connections: CONNECTIONS, duration: AQUECIMENTO, headers: a.headers ?? {} });
  const rodadas: Rodada[][] = alvos.map(() => []);
  for (let i = 0; i < RODADAS; i++) {
    const ordem = alvos.map((_, j) => j);
    if (i % 2 === 1) ordem.reverse();
    for (const j of ordem) rodadas[j]!.push(await rodada(alvos[j]!, SEGUNDOS_POR_RODADA));
  }
  return rodadas.map((rs) => ({ run: somar(rs), porRodada: rs.map((r) => r.rps) }));
}

/** the median of the per-round ratios a/b, with their range */
function razao(a: number[], b: number[]): string {
  const rs = a.map((x, i) => x / b[i]!).sort((x, y) => x - y);
  const mediana = rs.length % 2 ? rs[(rs.length - 1) / 2]! : (rs[rs.length / 2 - 1]! + rs[rs.length / 2]!) / 2;
  return `${mediana.toFixed(2)}×` + (rs.length > 1 ? ` (rodadas ${rs[0]!.toFixed(2)}–${rs[rs.length - 1]!.toFixed(2)})` : "");
}

function line(name: string, r: Run): string {
  const mem = `RSS ${r.rss[0]!.toFixed(0)} → ${r.rss[r.rss.length - 1]!.toFixed(0)} MB (máx ${Math.max(...r.rss).toFixed(0)})`;
  return `  ${name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(3)} ms  CPU ${r.cpuUs.toFixed(0).padStart(3)} µs/req  ${mem}${r.non2xx || r.errors ? `  (!) ${r.non2xx} não-2xx, ${r.errors} erros` : ""}`;
}

async function startNode(publicDir: string, workers?: number, redisUrl?: string): Promise<{ child: ChildProcess; url: string; proximaLinha(): Promise<string> }> {
  const args = ["--import", "tsx", join(REPO_ROOT, "test/bench/serve-child.ts"), publicDir, KEY, ...(workers ? ["--workers", String(workers)] : [])];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, COTACAO_REDIS_URL: redisUrl ?? "" },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const linhas: ((l: string) => void)[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    let buf = "";
    let achou = false;
    child.stdout!.on("data", (d: Buffer) => {
      buf += d.toString();
      if (!achou) {
        const m = /\{"url":"([^"]+)"\}/.exec(buf);
        if (!m) return;
        achou = true;
        resolve(m[1]!);
        buf = buf.slice(m.index + m[0].length);
      }
      for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
        const l = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (l) linhas.shift()?.(l);
      }
    });
    child.once("exit", (code) => reject(new Error(`servidor saiu com código ${code}`)));
  });
  return { child, url, proximaLinha: () => new Promise<string>((r) => linhas.push(r)) };
}

/**
 * CPU per query where it is spent: the server's own process.cpuUsage() (one process) over a fixed
 * number of queries, a few times (the least and the median are printed): on a machine shared with
 * other work, a figure that moves much less than requests per second.
 */
async function cpuPorConsulta(node: { child: ChildProcess; url: string; proximaLinha(): Promise<string> }, caminho: string, headers: Record<string, string>): Promise<string> {
  const N = 100_000;
  const cpu = async () => {
    node.child.stdin!.write("cpu\n");
    return JSON.parse(await node.proximaLinha()) as { cpu: number; usuario: number; sistema: number };
  };
  const us: { cpu: number; usuario: number; sistema: number }[] = [];
  for (let i = 0; i < 3; i++) {
    const a = await cpu();
    const r = await autocannon({ url: `${node.url}${caminho}`, connections: CONNECTIONS, amount: N, headers });
    const b = await cpu();
    const n = Math.max(1, r.requests.total);
    us.push({ cpu: (b.cpu - a.cpu) / n, usuario: (b.usuario - a.usuario) / n, sistema: (b.sistema - a.sistema) / n });
  }
  us.sort((x, y) => x.cpu - y.cpu);
  const m = us[1]!;
  return `${us[0]!.cpu.toFixed(1)} µs por consulta no mínimo, ${m.cpu.toFixed(1)} na mediana (usuário ${m.usuario.toFixed(1)}, sistema ${m.sistema.toFixed(1)}); 3 × ${N / 1000} mil consultas, process.cpuUsage() do servidor`;
}

/** where nginx's precompressed copy of cotacao/uf/MS.json lives (under its temp dir) */
const PRE = "/pre-comprimido/";
/** what a browser sends */
const NAVEGADOR = { "Accept-Encoding": "gzip, deflate, br" };

/** the Content-Encoding and size of one answer: the row's claim that it measures compressed answers is checked, not assumed */
function codificacao(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers }, (res) => {
      let n = 0;
      res.on("data", (d: Buffer) => (n += d.length));
      res.on("end", () => resolve(`${res.statusCode} ${res.headers["content-encoding"] ?? "sem compressão"}, ${n} B`));
    }).on("error", reject);
  });
}

async function startNginx(publicDir: string): Promise<{ child: ChildProcess; url: string; dir: string }> {
  const dir = await mkdtemp(join(tmpdir(), "cotacao-nginx-"));
  const port = await freePort();
  const conf = `daemon off;
worker_processes auto;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  keepalive_requests 100000;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  server {
    listen 127.0.0.1:${port};
    root ${publicDir};
    add_header Cache-Control "public, max-age=1800";
    add_header Access-Control-Allow-Origin "*";
    # only a request that accepts gzip sees these (the rows without Accept-Encoding do not):
    # JSON compressed on every request, at nginx's default level (1)
    gzip on;
    gzip_types application/json;
    gzip_min_length 1024;
    gzip_vary on;
    # the same file compressed once, ahead of time (${PRE}MS.json.gz, gzip -9): nginx's form of a kept compressed answer
    location ${PRE} {
      root ${dir};
      gzip_static on;
    }
  }
}
`;
  await writeFile(join(dir, "nginx.conf"), conf);
  const ms = await readFile(join(publicDir, "api/v1/cotacao/uf/MS.json"));
  // nginx's workers run as another user: the temp dir (0700) must let them in
  await chmod(dir, 0o755);
  await mkdir(join(dir, PRE), { recursive: true });
  await writeFile(join(dir, PRE, "MS.json"), ms);
  await writeFile(join(dir, PRE, "MS.json.gz"), gzipSync(ms, { level: 9 }));
  const child = spawn("/usr/sbin/nginx", ["-p", dir, "-c", join(dir, "nginx.conf")], { stdio: ["ignore", "ignore", "inherit"] });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 50; i++) {
    if (await fetch(url + "api/v1/cotacao.json").then((r) => r.ok, () => false)) return { child, url, dir };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGTERM");
  throw new Error(`nginx não respondeu em ${url} (veja ${dir}/error.log)`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

async function dashboard(url: string): Promise<void> {
  const b = await openChromium();
  try {
    const page = await b.context.newPage();
    let bytes = 0;
    let historyBytes = 0;
    const pending: Promise<void>[] = [];
    page.on("response", (res) => {
      pending.push(
        res.body().then(
          (body) => {
            // history data: the series files (with their whole historico) and the CSVs
            if (/api\/v1\/(cotacao\/[a-z_]+(\/[A-Z]{2})?\.json|historico\/)/.test(res.url())) historyBytes += body.length;
            else bytes += body.length;
          },
          () => undefined,
        ),
      );
    });
    await page.goto(url);
    await page.waitForSelector("body[data-pronto=ok]", { state: "attached", timeout: 30_000 });
    await Promise.all(pending);
    const ms = await page.evaluate(() => performance.getEntriesByName("precos-visiveis")[0]?.startTime ?? NaN);
    console.log(`  painel, primeira carga: ${(bytes / 1024).toFixed(1)} KB sem compressão, sem o histórico (meta < 150 KB); histórico ${(historyBytes / 1024).toFixed(1)} KB`);
    console.log(`  preços visíveis em ${ms.toFixed(0)} ms após a navegação (Chromium, loopback)`);
  } finally {
    await b.close();
  }
}

export async function benchServe(): Promise<void> {
  const publicDir = loadConfig().publicDir;
  const cores = availableParallelism();
  console.log(`\n## Servidor (${RODADAS * SEGUNDOS_POR_RODADA} s × ${CONNECTIONS} conexões por servidor em cada comparação, loopback; site ${publicDir})`);
  console.log(`  ${cores} núcleos; o gerador de carga (autocannon, um núcleo) roda nesta mesma máquina e disputa os núcleos com os servidores`);
  const CONSULTA = "api/v1/cotacao?uf=MS";
  const ESTATICO = "api/v1/historico/boi_gordo.csv";
  const nginx = await startNginx(publicDir);
  const redis = await startRedis();
  const nginxPids = [nginx.child.pid!];
  const resultados: { nome: string; q: Run; qNginx: Run; qRazao: string; a: Run; aNginx: Run; aRazao: string; h: Run; hNginx: Run; hRazao: string }[] = [];
  let comprimida: { nome: string; q: Run; nginxGzip: Run; nginxPre: Run; razaoPre: string; razaoGzip: string; como: string[] } | undefined;
  let cpuUmProcesso = "";
  try {
    const variantes: [string, number | undefined, string | undefined][] = [
      ["node, 1 processo", undefined, undefined],
      [`node, --workers ${cores}, cota no primário`, cores, undefined],
      [`node, --workers ${cores}, cota no Redis`, cores, redis.url],
    ];
    let primeiro: string | undefined;
    for (const [nome, workers, redisUrl] of variantes) {
      const node = await startNode(publicDir, workers, redisUrl);
      try {
        // the Redis server's CPU is the quota's, spent for these queries
        const pids = [node.child.pid!, ...(redisUrl ? [redis.pid()!] : [])];
        process.stderr.write(`bench serve: ${nome}\n`);
        // the query against the same representation as a static file: what nginx can serve for ?uf=MS
        const [nq, q] = await alternar([
          { url: `${nginx.url}api/v1/cotacao/uf/MS.json`, pids: nginxPids },
          { url: `${node.url}${CONSULTA}`, pids, headers: { "X-API-Key": KEY } },
        ]);
        // the same query without a key: the address's quota, counted one request at a time (no lease)
        const [na, a] = await alternar([
          { url: `${nginx.url}api/v1/cotacao/uf/MS.json`, pids: nginxPids },
          { url: `${node.url}${CONSULTA}`, pids },
        ]);
        const [nh, h] = await alternar([
          { url: `${nginx.url}${ESTATICO}`, pids: nginxPids },
          { url: `${node.url}${ESTATICO}`, pids },
        ]);
        resultados.push({
          nome,
          q: q!.run,
          qNginx: nq!.run,
          qRazao: razao(q!.porRodada, nq!.porRodada),
          a: a!.run,
          aNginx: na!.run,
          aRazao: razao(a!.porRodada, na!.porRodada),
          h: h!.run,
          hNginx: nh!.run,
          hRazao: razao(h!.porRodada, nh!.porRodada),
        });
        if (workers !== undefined && redisUrl === undefined) {
          // the query as browsers send it, against nginx on the same request header
          const gzipUrl = `${nginx.url}api/v1/cotacao/uf/MS.json`;
          const preUrl = `${nginx.url}${PRE.slice(1)}MS.json`;
          const como = await Promise.all([
            codificacao(`${node.url}${CONSULTA}`, { ...NAVEGADOR, "X-API-Key": KEY }),
            codificacao(gzipUrl, NAVEGADOR),
            codificacao(preUrl, NAVEGADOR),
          ]);
          const [gz, pre, cq] = await alternar([
            { url: gzipUrl, pids: nginxPids, headers: NAVEGADOR },
            { url: preUrl, pids: nginxPids, headers: NAVEGADOR },
            { url: `${node.url}${CONSULTA}`, pids, headers: { ...NAVEGADOR, "X-API-Key": KEY } },
          ]);
          comprimida = {
            nome,
            q: cq!.run,
            nginxGzip: gz!.run,
            nginxPre: pre!.run,
            razaoPre: razao(cq!.porRodada, pre!.porRodada),
            razaoGzip: razao(cq!.porRodada, gz!.porRodada),
            como,
          };
        }
        if (!primeiro) {
          primeiro = nome;
          cpuUmProcesso = await cpuPorConsulta(node, CONSULTA, { "X-API-Key": KEY });
          await dashboard(node.url);
        }
      } finally {
        await stop(node.child);
      }
    }
    const nginxNome = `nginx, worker_processes auto (${cores})`;
    console.log(`  consulta (/${CONSULTA} com X-API-Key; nginx: o arquivo estático equivalente, cotacao/uf/MS.json):`);
    for (const r of resultados) {
      console.log(line(nginxNome, r.qNginx));
      console.log(`${line(r.nome, r.q)}  ${r.qRazao} nginx`);
    }
    console.log(`  node, 1 processo, CPU da consulta: ${cpuUmProcesso}`);
    const padrao = new Quota().keyLimit;
    console.log(
      `  (a chave do bench tem cota de 10⁹ por dia: seus lotes são de ${LOTE_MAXIMO}; uma chave de ${padrao.toLocaleString("pt-BR")} por dia, o padrão, reserva no máximo ${tamanhoDoLote(LOTE_MAXIMO, padrao)} por vez)`,
    );
    console.log(`  a mesma consulta sem chave (a cota do endereço, 10⁹ aqui, contada uma a uma: no primário ou no Redis, sem lotes):`);
    for (const r of resultados) {
      console.log(line(nginxNome, r.aNginx));
      console.log(`${line(r.nome, r.a)}  ${r.aRazao} nginx`);
    }
    if (comprimida) {
      const c = comprimida;
      const [node, gz, pre] = c.como;
      console.log(`  consulta com Accept-Encoding: gzip, deflate, br (a de todo navegador):`);
      console.log(`    node: brotli da resposta pronta, comprimida uma vez e guardada (${node}); nginx não tem brotli aqui, só gzip`);
      console.log(line(`nginx, gzip a cada pedido (gzip on, nível 1)`, c.nginxGzip) + `  (${gz})`);
      console.log(line(`nginx, .gz pré-comprimido (gzip_static)`, c.nginxPre) + `  (${pre})`);
      console.log(`${line(c.nome, c.q)}  ${c.razaoPre} nginx gzip_static, ${c.razaoGzip} nginx gzip a cada pedido`);
    }
    console.log(`  estático (/${ESTATICO}):`);
    for (const r of resultados) {
      console.log(line(nginxNome, r.hNginx));
      console.log(`${line(r.nome, r.h)}  ${r.hRazao} nginx`);
    }
    console.log(
      `  a razão é a mediana das razões de ${RODADAS} rodadas de ${SEGUNDOS_POR_RODADA} s que alternam os servidores (cada um aquecido ${AQUECIMENTO} s antes); p99 é o pior das rodadas`,
    );
    console.log(`  metas (issue 15): consulta com todos os núcleos ≥ 0,8× nginx e p99 < 20 ms, com e sem Redis`);
  } finally {
    await stop(nginx.child);
    await rm(nginx.dir, { recursive: true, force: true });
    await redis.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchServe();
