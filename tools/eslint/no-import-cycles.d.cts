import type { Rule } from 'eslint';

/** ESLint rule `trilha/no-import-cycles` (no-import-cycles.cjs). */
declare const rule: Rule.RuleModule;
export = rule;
