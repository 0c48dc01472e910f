// npm run docs: writes what the docs generate from the code's declarations: the configuration table of
// docs/configuration.md (settings) and the components' dependencies in docs/architecture.md (uses).
import { readFileSync, writeFileSync } from 'node:fs';
import { ARCHITECTURE_PAGE, CONFIGURATION_PAGE, withComponentPicture, withSettingsTable } from '../gateway/settings-doc.js';

writeFileSync(CONFIGURATION_PAGE, withSettingsTable(readFileSync(CONFIGURATION_PAGE, 'utf8')));
writeFileSync(ARCHITECTURE_PAGE, withComponentPicture(readFileSync(ARCHITECTURE_PAGE, 'utf8')));
console.log('docs/configuration.md and docs/architecture.md: generated parts written');
