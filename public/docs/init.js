// Gerado por pipeline/openapi/docs.ts; não edite.
import { init } from "./redoc.standalone.js";

init("../api/v1/openapi.json", { disableTelemetry: true, expandResponses: "200", jsonSamplesExpandLevel: 2 }, document.getElementById("redoc"));
