export function add(a, b) {
  return a + b;
}

export class Counter {
  constructor() {
    this.n = 0;
  }
  inc() {
    this.n += 1;
  }
}

export const double = function (x) {
  return x * 2;
};
