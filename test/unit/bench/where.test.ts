import { describe, expect, it } from 'vitest';
import { moduleGroup, withMarks } from '../../../bench/cold-start/where';

describe('where module init goes', () => {
  it('groups a bundled module by package, or by the first two folders of ours', () => {
    expect(moduleGroup('node_modules/@aws-sdk/core/dist-es/index.js')).toBe('@aws-sdk/core');
    expect(moduleGroup('node_modules/.pnpm/x/node_modules/zod/v4/core.js')).toBe('zod');
    expect(moduleGroup('functions/api/app.ts')).toBe('functions/api');
  });

  it('marks the start of each module and the end, and times each group when evaluated', () => {
    const bundle = [
      '// node_modules/zod/index.js',
      'var a = 1;',
      '// functions/api/app.ts',
      'var b = a + 1;',
    ].join('\n');
    const marked = withMarks(bundle);
    expect(marked.match(/__initMarks\.push/g)).toHaveLength(3);
    const marks: [string, number][] = [];
    new Function('__initMarks', marked)(marks);
    expect(marks.map(([group]) => group)).toEqual(['zod', 'functions/api', 'end']);
    expect(marks.every(([, at], i) => i === 0 || at >= (marks[i - 1]?.[1] ?? 0))).toBe(true);
  });
});
