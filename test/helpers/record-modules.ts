/** Loaded with `--import` ahead of a program: every module it loads is recorded, and the list written as JSON, at exit, to the file SITEMAPKIT_MODULES_OUT names. */
import { writeFileSync } from 'node:fs';
import { registerHooks } from 'node:module';

const loaded: string[] = [];
registerHooks({
  load(url, context, nextLoad) {
    loaded.push(url);
    return nextLoad(url, context);
  },
});
process.on('exit', () => writeFileSync(process.env['SITEMAPKIT_MODULES_OUT'] ?? '', JSON.stringify(loaded)));
