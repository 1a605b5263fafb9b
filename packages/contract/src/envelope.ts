import { type Static, type TSchema, Type } from '@sinclair/typebox';

/** Every answer: { code, msg, success, data } (spec section 3, "Response envelope"). */
export const Envelope = <T extends TSchema>(data: T) =>
  Type.Object({
    code: Type.Integer(),
    msg: Type.String(),
    success: Type.Boolean(),
    data: Type.Union([data, Type.Null()]),
  });

export interface EnvelopeOf<T> {
  code: number;
  msg: string;
  success: boolean;
  data: T | null;
}

export const ErrorEnvelope = Envelope(Type.Null());
export type ErrorEnvelope = Static<typeof ErrorEnvelope>;
