import path from 'node:path';
import { readConfigFile, SHIPPED_CONFIG, type ConfigMap } from '../../lib/global-configuration.js';

/** The keys spec Document 1 lists for the registration configuration (`GET /v1/syncdata/configs`). */
export const REGISTRATION_KEYS = [
  'keyValidityPeriodPreRegPack',
  'keyValidityPeriodRegPack',
  'smsNotificationTemplateRegCorrection',
  'smsNotificationTemplateOtp',
  'smsNotificationTemplateUpdateUIN',
  'smsNotificationTemplateLostUIN',
  'smsNotificationTemplateNewReg',
  'emailNotificationTemplateUpdateUIN',
  'emailNotificationTemplateOtp',
  'emailNotificationTemplateRegCorrection',
  'emailNotificationTemplateNewReg',
  'emailNotificationTemplateLostUIN',
  'defaultDOB',
  'supervisorVerificationRequiredForExceptions',
  'irisRetryAttempts',
  'fingerprintRetryAttempts',
  'faceRetry',
  'fingerprintQualityThreshold',
  'irisQualityThreshold',
  'faceQualityThreshold',
  'multifactorauthentication',
  'supervisorAuthType',
  'supervisorAuthMode',
  'officerAuthType',
  'operatorRegSubmissionMode',
  'maxDurationRegPermittedWithoutMasterdataSyncInDays',
  'maxDurationWithoutMasterdataSyncInDays',
  'modeOfNotifyingIndividual',
  'maxDocSizeInMB',
  'noOfFingerprintAuthToOnboardUser',
  'noOfIrisAuthToOnboardUser',
  'gpsDistanceRadiusInMeters',
  'automaticSyncFreqServerToClient',
  'loginMode',
  'retentionPeriodAudit',
  'passwordExpiryDurationInDays',
  'blockRegistrationIfNotSynced',
] as const;

/** The registration client configuration of GET /v1/syncdata/configs, read once when the component's services are built. */
export function loadRegistrationConfiguration(file: string | undefined): ConfigMap {
  return readConfigFile('PLATFORM_SYNC_REGISTRATION_CONFIG', file ?? path.join(SHIPPED_CONFIG, 'registration.properties'), REGISTRATION_KEYS);
}
