// Errors with a spec'd kind (OP-2, PROTO-10).
export class HrcError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

export function invalid(message) {
  return new HrcError('invalid_input', message);
}

export function indexError(message) {
  return new HrcError('index_error', message);
}
