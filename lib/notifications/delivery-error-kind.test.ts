import { describe, expect, it } from 'vitest';
import { deliveryErrorKind } from './delivery-error-kind';

describe('the kind of a failed notification attempt', () => {
  it('is read from the stored error text', () => {
    expect(deliveryErrorKind('connect ECONNREFUSED 127.0.0.1:9')).toEqual({ kind: 'refused' });
    expect(deliveryErrorKind('timeout after 300 ms')).toEqual({ kind: 'timeout' });
    expect(deliveryErrorKind('getaddrinfo ENOTFOUND shop.invalid')).toEqual({ kind: 'unknownHost' });
    expect(deliveryErrorKind('socket hang up')).toEqual({ kind: 'reset' });
    expect(deliveryErrorKind('not acknowledged (HTTP 500)')).toEqual({ kind: 'notAcknowledged', httpStatus: 500 });
    expect(deliveryErrorKind('refused: 10.0.0.1 is a private address')).toEqual({ kind: 'other' });
  });
});
