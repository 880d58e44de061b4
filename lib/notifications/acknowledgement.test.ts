import { describe, expect, it } from 'vitest';
import { isAcknowledged } from './acknowledgement';

describe('acknowledgement rule', () => {
  it.each([
    [200, 'success'],
    [200, 'ok'],
    [204, 'ok'],
    [200, '{"code":0}'],
    [200, '{"code":0,"message":"received"}'],
    [200, ' success\n'],
    [299, '\tok\r\n'],
  ])('HTTP %i %j acknowledges', (status, body) => expect(isAcknowledged(status, body)).toBe(true));

  it.each([
    [200, 'SUCCESS'],
    [200, 'fail'],
    [200, ''],
    [200, 'success!'],
    [200, '{"code":"0"}'],
    [200, '{"code":1}'],
    [200, '[0]'],
    [200, '0'],
    [500, 'success'],
    [302, 'ok'],
    [404, '{"code":0}'],
  ])('HTTP %i %j does not', (status, body) => expect(isAcknowledged(status, body)).toBe(false));
});
