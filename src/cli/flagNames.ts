/** A name of openapi.json in kebab case: `user_request` is `user-request`, `executeStream` is `execute-stream`. */
export function kebabCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/_/g, '-')
    .toLowerCase();
}

/** Whether a written flag names this field: its kebab case, or its own spelling. */
export function namesField(written: string, field: string): boolean {
  return written === kebabCase(field) || written === field;
}
