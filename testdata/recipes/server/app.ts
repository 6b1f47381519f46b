export const VERSION = "1";

export interface Handler {
  handle(req: string): string;
}

export enum Mode {
  A,
  B,
}

export namespace Util {
  export function trim(s: string): string {
    return s.trim();
  }
}

export class App implements Handler {
  handle(req: string): string {
    return req;
  }
  static create(): App {
    return new App();
  }
}

export const run = (x: number): number => x * 2;
type Alias = string;
