// The error codes each operation of openapi.json can answer: the operation's own `x-oz-error-codes`, plus the codes
// the root's `x-oz-error-code-rules` imply for it (written once: "every operation with a body can answer
// invalid_json"). Read by the generator (the typed `result()` of each method), the linter (every code is an
// `ErrorCode` with a status the operation describes) and the test suite (every error the embedded server
// answers for an operation is in its list).

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const CONDITIONS = new Set(['keyed', 'body', 'query', 'wire', 'write', 'idempotent', 'tags', 'exceptTags']);
// Query parameters the SDK fills itself, not the caller (as model.mjs reads them).
const SDK_QUERY = new Set(['format']);

const deref = (doc, node) => {
  let n = node;
  while (n && n.$ref)
    n = n.$ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o[k], doc);
  return n;
};

/** What a rule's `when` can ask of an operation. */
export function operationFacts(doc, op, method) {
  const params = (op.parameters ?? []).map((p) => deref(doc, p));
  return {
    keyed: (op.security ?? doc.security ?? []).length > 0,
    body: op.requestBody !== undefined,
    query: params.some((p) => p.in === 'query' && !SDK_QUERY.has(p.name)),
    wire: params.some((p) => p.in === 'query' && p.name === 'format'),
    write: method !== 'get',
    idempotent: op['x-oz-idempotent'] === true,
    tags: op.tags ?? [],
  };
}

function ruleHolds(when, facts) {
  for (const [name, wanted] of Object.entries(when)) {
    if (name === 'tags') {
      if (!wanted.some((t) => facts.tags.includes(t))) return false;
    } else if (name === 'exceptTags') {
      if (wanted.some((t) => facts.tags.includes(t))) return false;
    } else if (facts[name] !== wanted) {
      return false;
    }
  }
  return true;
}

/** The rules of the root's `x-oz-error-code-rules`, checked for shape. */
export function errorCodeRules(doc) {
  const rules = doc['x-oz-error-code-rules'] ?? [];
  if (!Array.isArray(rules)) throw new Error('openapi.json: x-oz-error-code-rules must be a list');
  for (const [i, rule] of rules.entries()) {
    if (typeof rule?.when !== 'object' || !Array.isArray(rule.codes))
      throw new Error(`x-oz-error-code-rules[${i}]: needs \`when\` (an object) and \`codes\` (a list)`);
    for (const name of Object.keys(rule.when))
      if (!CONDITIONS.has(name)) throw new Error(`x-oz-error-code-rules[${i}]: unknown condition ${name} (known: ${[...CONDITIONS].join(', ')})`);
  }
  return rules;
}

/**
 * Every operation's error codes, by operationId, sorted; `own` are the operation's own `x-oz-error-codes`
 * (undefined when it has none written), `implied` those the rules add.
 */
export function operationErrorCodes(doc) {
  const rules = errorCodeRules(doc);
  const out = new Map();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const facts = operationFacts(doc, op, method);
      const own = op['x-oz-error-codes'];
      const implied = rules.filter((r) => ruleHolds(r.when, facts)).flatMap((r) => r.codes);
      const codes = [...new Set([...(own ?? []), ...implied])].sort();
      out.set(op.operationId, { id: op.operationId, method, path, own, implied, codes, responses: op.responses });
    }
  }
  return out;
}

/** The union of codes an execution's run can end with: the codes of every operation that starts a run. */
export function runErrorCodes(doc, byOperation = operationErrorCodes(doc)) {
  const codes = new Set();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op?.['x-oz-idempotent'] === true) for (const code of byOperation.get(op.operationId).codes) codes.add(code);
    }
  }
  return [...codes].sort();
}

/** Problems of the lists: an unknown code, a code whose status the operation does not describe, a missing list. */
export function lintOperationErrorCodes(doc) {
  const statuses = new Map((doc.components.schemas.ErrorCode?.oneOf ?? []).map((b) => [b.const, b['x-oz-status']]));
  const problems = [];
  try {
    errorCodeRules(doc);
  } catch (err) {
    return [err.message];
  }
  for (const [i, rule] of doc['x-oz-error-code-rules'].entries()) {
    for (const code of rule.codes) if (!statuses.has(code)) problems.push(`x-oz-error-code-rules[${i}]: ${code} is not a code of ErrorCode`);
  }
  for (const entry of operationErrorCodes(doc).values()) {
    const where = `${entry.method.toUpperCase()} ${entry.path} (${entry.id})`;
    if (!Array.isArray(entry.own)) problems.push(`${where}: no x-oz-error-codes (list the codes it can answer beyond those the rules imply; [] for none)`);
    for (const code of entry.codes) {
      const status = statuses.get(code);
      if (status === undefined) problems.push(`${where}: x-oz-error-codes: ${code} is not a code of ErrorCode`);
      else if (!entry.responses[String(status)]) problems.push(`${where}: can answer ${code}, but describes no ${status} response`);
    }
  }
  return problems;
}
