// frictionless-js (the `datapackage` package) ships no types: the part the tests use.
declare module "datapackage" {
  export interface Resource {
    name: string;
    tabular: boolean;
    read(options: { cast?: boolean; keyed?: boolean }): Promise<unknown[]>;
  }
  export interface DataPackageLoaded {
    valid: boolean;
    errors: Error[];
    descriptor: Record<string, unknown>;
    resources: Resource[];
  }
  export const Package: {
    load(descriptor: string | object, options?: { basePath?: string; strict?: boolean }): Promise<DataPackageLoaded>;
  };
}
