import { defineDetector, type PluginModule } from '../../core/plugin-api.ts';
import { DEFAULT_WHOIS_CONFIG, WHOIS_CONFIG_SCHEMA, type WhoisConfig } from './config.ts';
import { registrationFindings, summariseRegistration } from './registration-age.ts';
import weights from './weights.json' with { type: 'json' };

const detector = defineDetector<Record<string, never>, WhoisConfig>({
  meta: {
    id: 'whois',
    version: '1.0.0',
    description: 'Registration age of the scanned domain from its RDAP registration event.',
    surfaces: ['scan'],
    flags: {
      'whois:very_recent_registration': { description: 'Registered within 60 days.' },
      'whois:ultra_recent_registration': {
        description: 'Registered within 7 days (raised in addition to the above).',
      },
    },
    configSchema: WHOIS_CONFIG_SCHEMA,
    defaultConfig: DEFAULT_WHOIS_CONFIG,
    bestEffort: true,
    timeoutMs: 1_000,
  },
  deps: {},
  create: ({ config }) => ({
    detect(ctx) {
      const rdap = ctx.evidence?.rdap;
      // IP literals, unknown TLDs and unreachable registries all land here: no age, no finding, no fields.
      if (!rdap?.ok) return { findings: [] };
      const registration = summariseRegistration(rdap.value);
      return {
        findings: registrationFindings(rdap.value, config),
        data: {
          ...(registration.age_days === undefined ? {} : { 'whois.age_days': registration.age_days }),
          'whois.data.registration': registration,
        },
      };
    },
  }),
});

export default detector;

/** Its one line in plugins/index.ts: the detector, the weights shipped beside it and any role it fills. */
export const plugin: PluginModule = { detector, weights };
