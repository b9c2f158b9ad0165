// GET /api/limits' answer. A named component so that clients generated from the document get a type
// of that name; the server writes it in src/http/limits-route.ts.
export const LIMITS_SCHEMA = {
  type: 'object',
  description: "The caller's plan and what is left of its budget.",
  required: ['plan', 'limit', 'windowSeconds', 'remaining', 'resetSeconds', 'inFlightLimit'],
  properties: {
    plan: { type: 'string', description: '`default` without a key, else the key\'s plan.', examples: ['default', 'pro'] },
    limit: { type: 'integer', description: 'Bucket size: requests in a burst.' },
    windowSeconds: { type: 'integer', description: 'Seconds for an empty bucket to fill again.' },
    remaining: { type: 'integer', description: 'Requests left now.' },
    resetSeconds: { type: 'integer', description: 'Seconds until the bucket is full again.' },
    inFlightLimit: { type: 'integer', description: 'Requests the caller may have in flight at once.' },
  },
  examples: [{ plan: 'default', limit: 30, windowSeconds: 60, remaining: 29, resetSeconds: 2, inFlightLimit: 4 }],
};
