/** The part of the `macaroon` package (go-macaroon's JavaScript twin) the lnd stand-in uses. */
declare module 'macaroon' {
  export type Macaroon = {
    identifier: Uint8Array;
    location: string;
    exportBinary(): Uint8Array;
    verify(rootKey: Uint8Array, check: (condition: string) => string | null, discharges: Macaroon[]): void;
  };
  export function newMacaroon(options: {
    identifier: Uint8Array;
    location: string;
    rootKey: Uint8Array;
    version: 1 | 2;
  }): Macaroon;
  export function importMacaroon(binary: Uint8Array): Macaroon;
}
