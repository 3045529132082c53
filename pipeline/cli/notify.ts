import { join } from "node:path";
import { loadConfig, REPO_ROOT } from "../config.ts";
import { emptyEventos, loadEventos } from "../events/model.ts";
import { entregarEventos, formatarRelatorio, loadAssinantes, loadEstado } from "../events/webhooks.ts";
import { cliOptions } from "./args.ts";

const USAGE = `uso: npm run notify [-- --webhooks ARQUIVO --estado ARQUIVO]
  envia por POST os eventos novos de api/v1/eventos.json aos assinantes de webhooks.json
  --webhooks ARQUIVO  lista de assinantes (padrão: webhooks.json na raiz do repositório)
  --estado ARQUIVO    ids já entregues a cada assinante e o último evento visto, com o seq
                      que mostra se eventos saíram da lista sem entrega (padrão: webhooks-entregues.json);
                      o workflow faz commit deste arquivo junto com os dados`;

const args = cliOptions({ webhooks: { type: "string" }, estado: { type: "string" } }, USAGE);

try {
  const config = loadConfig();
  const webhooksFile = args.webhooks ?? join(REPO_ROOT, "webhooks.json");
  const estadoFile = args.estado ?? join(REPO_ROOT, "webhooks-entregues.json");
  const assinantes = await loadAssinantes(webhooksFile);
  const eventos = (await loadEventos(config.publicDir)) ?? emptyEventos();
  const estado = await loadEstado(estadoFile);
  const relatorio = await entregarEventos(eventos, assinantes, estado, {
    estadoFile: assinantes.length > 0 ? estadoFile : undefined,
    log: (l) => console.log(l),
  });
  for (const line of formatarRelatorio(relatorio)) console.log(line);
  process.exitCode = relatorio.ok ? 0 : 1;
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
}
