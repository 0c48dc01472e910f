// npm run docs: writes what the docs generate from the code's declarations: the configuration table of
// docs/configuration.md (settings), the components' dependencies in docs/architecture.md (uses), and
// docs/licenses.md (package-lock.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { LICENSES_PAGE, licensesPage } from '../gateway/licenses-doc.js';
import { ARCHITECTURE_PAGE, CONFIGURATION_PAGE, withComponentPicture, withSettingsTable } from '../gateway/settings-doc.js';

writeFileSync(CONFIGURATION_PAGE, withSettingsTable(readFileSync(CONFIGURATION_PAGE, 'utf8')));
writeFileSync(ARCHITECTURE_PAGE, withComponentPicture(readFileSync(ARCHITECTURE_PAGE, 'utf8')));
writeFileSync(LICENSES_PAGE, licensesPage());
console.log('docs/configuration.md, docs/architecture.md and docs/licenses.md: generated parts written');
