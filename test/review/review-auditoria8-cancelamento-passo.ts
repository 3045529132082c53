/**
 * Preloaded (node --import tsx --import THIS) into a real `npm run update` by
 * review-auditoria8-cancelamento.test.ts: COTACAO_TESTE_SINAIS_NO_PASSO="k:SIGTERM[,SIGINT]"
 * sends these signals to the process just before step k of its publish (the steps of
 * COTACAO_TESTE_MATAR_NO_PASSO, journal.ts), as GitHub Actions cancelling the job would at that
 * instant. Through the publish's own test hook, so it acts on any version of the command.
 */
import { setFalhasDePublicacao } from "../../pipeline/publish/journal.ts";

const m = /^(\d+):((?:SIGINT|SIGTERM)(?:,(?:SIGINT|SIGTERM))*)$/.exec(process.env.COTACAO_TESTE_SINAIS_NO_PASSO ?? "");
if (m) {
  const passo = Number(m[1]);
  const sinais = m[2]!.split(",") as NodeJS.Signals[];
  setFalhasDePublicacao({
    antes: async (_p, k) => {
      if (k !== passo) return;
      process.stdout.write(`[teste] sinais ${sinais.join(", ")} no passo ${k}\n`);
      for (const s of sinais) process.kill(process.pid, s);
      // the handlers run before the publish takes its next step
      await new Promise((r) => setTimeout(r, 100));
    },
  });
}
