import type { Database, Subscription, SubscriptionHandlers } from '../../../lib/db/client.js';
import { listenToTriggers } from '../../../lib/db/triggers.js';

const CHANNEL = 'partner_links_changed';
/** The tables of a validation's links; any change to them empties every instance's cache. */
const TABLES = ['license_key', 'pms_misp', 'pms_partner', 'pms_partner_api_key', 'pms_policy', 'pms_policy_group'];
const TRIGGER_SQL = [
  `CREATE OR REPLACE FUNCTION partner_links_announce_change() RETURNS trigger AS $$
   BEGIN
     PERFORM pg_notify('${CHANNEL}', TG_TABLE_NAME);
     RETURN NULL;
   END $$ LANGUAGE plpgsql`,
  ...TABLES.map(
    (table) => `CREATE OR REPLACE TRIGGER partner_links_announce_change AFTER UPDATE OR DELETE ON ${table}
     FOR EACH STATEMENT EXECUTE FUNCTION partner_links_announce_change()`,
  ),
];

/** Where the links' tables announce a change: installs their triggers, then listens (the validation cache's storage). */
export function listenToLinkChanges(database: Pick<Database, 'prisma' | 'subscribe'>, handlers: SubscriptionHandlers): Promise<Subscription> {
  return listenToTriggers(database, CHANNEL, TRIGGER_SQL, handlers);
}
