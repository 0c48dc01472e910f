// npm run docs: writes the configuration table of docs/configuration.md from the settings declarations.
import { readFileSync, writeFileSync } from 'node:fs';
import { CONFIGURATION_PAGE, withSettingsTable } from '../gateway/settings-doc.js';

writeFileSync(CONFIGURATION_PAGE, withSettingsTable(readFileSync(CONFIGURATION_PAGE, 'utf8')));
console.log('docs/configuration.md: configuration table written');
