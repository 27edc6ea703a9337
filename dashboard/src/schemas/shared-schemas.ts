/** The shared schemas of replies and stored records that the dashboard checks, each under its own name in `schemas` (./schemas.ts). */
export {
  ZAccountResponseSchema,
  ZAnonymousProjectsResponseSchema,
  ZAnonymousSessionResponseSchema,
  ZAuthSessionResponseSchema,
  ZCreatorResponseSchema,
  ZEmailCollectionResponseSchema,
  ZEmailLinkConsumeResponseSchema,
  ZEmailLinkDescribeResponseSchema,
  ZEngagementSummaryResponseSchema,
  ZEngagementUpdatesResponseSchema,
  ZResumableUploadSchema,
  ZUploadDraftSchema,
} from '@dropsite/shared';
