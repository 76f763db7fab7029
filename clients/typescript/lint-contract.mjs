// Lints an OpenAPI document with Redocly's linter and the configuration beside it (redocly.yaml and
// its .redocly.lint-ignore.yaml), and prints one JSON line: the problems it did not let pass, and how
// many it let pass. Run by tests/contract/test_openapi_linter.py: node lint-contract.mjs DOCUMENT CONFIG
import { lint, loadConfig } from "@redocly/openapi-core";

const [document, configPath] = process.argv.slice(2);
const config = await loadConfig({ configPath });
const problems = await lint({ ref: document, config });
const shown = (problem) => ({
  rule: problem.ruleId,
  severity: problem.severity,
  message: problem.message,
  pointer: problem.location[0]?.pointer ?? null,
});
console.log(
  JSON.stringify({
    problems: problems.filter((problem) => !problem.ignored).map(shown),
    let_pass: problems.filter((problem) => problem.ignored).length,
  }),
);
