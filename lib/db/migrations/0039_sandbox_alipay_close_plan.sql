-- The simulated Alipay's close control: a trade that is not waiting answers alipay.trade.close with the other of the
-- two codes Alipay documents for it (ACQ.REASON_ILLEGAL_STATUS), on demand.
ALTER TABLE "sandbox_alipay_trades" ADD COLUMN "close_plan" text;
