// Core reads a plugin's output through the role its index entry declares (`provides`), never by plugin id.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineDetector } from '../../core/detector.ts';
import { PluginCatalog, type PluginModule } from '../../core/engine/pipeline/plugin-catalog.ts';
import { PLUGINS } from '../../plugins/index.ts';

function stub(id: string, flags: string[]): PluginModule['detector'] {
  return defineDetector({
    meta: {
      id,
      version: '0',
      description: id,
      surfaces: ['agent_content'],
      flags: Object.fromEntries(flags.map((f) => [f, { description: f }])),
    },
    deps: {},
    create: () => ({ detect: () => ({ findings: [] }) }),
  });
}

describe('plugin roles (provides)', () => {
  it('the shipped index fills each role core reads exactly once', () => {
    const catalog = new PluginCatalog(PLUGINS);
    assert.equal(PLUGINS.filter((m) => m.provides?.agentScreen).length, 1);
    assert.equal(catalog.gatedBy('campaign_tagging').size, 1);
    assert.ok(PLUGINS.some((m) => m.provides?.scoredResult === 'oauth_scope'));
  });

  it('refuses two plugins claiming one role', () => {
    const a = { detector: stub('a', ['x:a']), weights: { 'x:a': 1 }, provides: { agentScreen: true } };
    const b = { detector: stub('b', ['x:b']), weights: { 'x:b': 1 }, provides: { agentScreen: true } };
    assert.throws(() => new PluginCatalog([a, b]), /agentScreen is provided by both a and b/);
  });

  it('finds the owner of an emitted flag, parametrised ones included', () => {
    const catalog = new PluginCatalog(PLUGINS);
    assert.equal(catalog.ownerOf('campaign:autonomous.related'), 'campaign');
    assert.equal(catalog.ownerOf('brand:ct_sibling_impersonation_acme'), 'brand');
    assert.equal(catalog.ownerOf('no:such_flag'), undefined);
  });
});
