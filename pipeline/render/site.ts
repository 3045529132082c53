// Site assembly moved to ../site/assemble.ts; RenderedFile lives in ./json.ts. This re-export
// goes once publish/write.ts imports it from there.
export type { RenderedFile } from "./json.ts";
