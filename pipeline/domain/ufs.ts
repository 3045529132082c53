export const UFS = {
  AC: "Acre",
  AL: "Alagoas",
  AP: "Amapá",
  AM: "Amazonas",
  BA: "Bahia",
  CE: "Ceará",
  DF: "Distrito Federal",
  ES: "Espírito Santo",
  GO: "Goiás",
  MA: "Maranhão",
  MT: "Mato Grosso",
  MS: "Mato Grosso do Sul",
  MG: "Minas Gerais",
  PA: "Pará",
  PB: "Paraíba",
  PR: "Paraná",
  PE: "Pernambuco",
  PI: "Piauí",
  RJ: "Rio de Janeiro",
  RN: "Rio Grande do Norte",
  RS: "Rio Grande do Sul",
  RO: "Rondônia",
  RR: "Roraima",
  SC: "Santa Catarina",
  SP: "São Paulo",
  SE: "Sergipe",
  TO: "Tocantins",
} as const;

export type UF = keyof typeof UFS;

export const ALL_UFS = Object.keys(UFS).sort() as UF[];


export function isUF(value: string): value is UF {
  return Object.prototype.hasOwnProperty.call(UFS, value);
}

/** Accepts " ms ", "Ms", "MS"; returns null for anything that is not one of the 27 codes. */
export function normalizeUF(value: string): UF | null {
  const v = value.trim().toUpperCase();
  return isUF(v) ? v : null;
}
