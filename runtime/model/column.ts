// A growable typed array of numbers: the compact columns the build keeps per protein and a match batch per
// candidate, without a JavaScript array's 8 bytes (and more) a value.

export class Column<T extends Uint8Array | Int32Array | Uint32Array | Float64Array> {
  length = 0;
  constructor(public data: T) {}

  push(value: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = value;
  }

  /** The data, with room for `n` more values. */
  reserve(n: number): T {
    if (this.length + n > this.data.length) {
      const grown = new (this.data.constructor as new (n: number) => T)(Math.max(this.data.length * 2, this.length + n));
      grown.set(this.data);
      this.data = grown;
    }
    return this.data;
  }
}
