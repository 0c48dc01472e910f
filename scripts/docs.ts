// npm run docs: writes the README's configuration table from the settings declarations.
import { readFileSync, writeFileSync } from 'node:fs';
import { withSettingsTable } from '../gateway/settings-doc.js';

const file = new URL('../README.md', import.meta.url);
writeFileSync(file, withSettingsTable(readFileSync(file, 'utf8')));
console.log('README.md: configuration table written');
