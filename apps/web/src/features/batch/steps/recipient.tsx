/** What a batch row, order group or result shows of its recipient. */
interface Recipient {
  consignee: string;
  phone: string;
  address: string;
}

/** The 收货人 column of the batch tables: name and phone, the address below. */
export const recipientColumn = (width?: number) => ({
  title: '收货人',
  key: 'recipient',
  ...(width ? { width } : {}),
  render: (_: unknown, r: Recipient) => (
    <>
      <div>
        {r.consignee} {r.phone}
      </div>
      <div className="batch-cell__sub">{r.address}</div>
    </>
  ),
});
