import { LOCATION_NAME_SCHEMA } from '../config/location';
import { LABELS_SCHEMA, TOOLS_SCHEMA, VERSION_SCHEMA } from '../locations/hello-schema';

// GET /api/locations' answer: the hub first, then its connected agents by name. The fields an agent
// announces use the very schemas the hub checks its hello with.
export const LOCATION_SCHEMA = {
  type: 'object',
  description: 'A place measurements can run from: this server itself, or an agent connected to it. No addresses.',
  additionalProperties: false,
  required: ['name', 'labels', 'tools', 'version', 'connectedSince'],
  properties: {
    name: { ...LOCATION_NAME_SCHEMA, description: "The location's name: NETTOOLS_LOCATION (this server's defaults to `local`)." },
    labels: { ...LABELS_SCHEMA, description: 'What the location says about itself (NETTOOLS_LOCATION_LABELS), e.g. country, city, network, asn.' },
    tools: { ...TOOLS_SCHEMA, description: 'The tools whose engines opened there.' },
    version: { ...VERSION_SCHEMA, description: 'The nettools version it runs.' },
    connectedSince: { type: 'string', format: 'date-time', description: 'When the agent said hello; for this server, when it started.' },
  },
  examples: [{ name: 'de-fra', labels: { country: 'DE', city: 'Frankfurt', asn: '64500' }, tools: ['ping', 'dns', 'traceroute'], version: '0.1.0', connectedSince: '2026-11-27T08:00:00.000Z' }],
};

export const LOCATIONS_PATH = {
  get: {
    operationId: 'locations',
    tags: ['tools'],
    summary: 'Where measurements can run: this server first, then each connected agent',
    security: [] as never[],
    responses: {
      '200': {
        description: 'This server, then its connected agents by name.',
        content: { 'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Location' } } } },
      },
    },
  },
};
