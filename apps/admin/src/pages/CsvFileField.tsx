import { Button, Upload } from 'antd';
import type { ReactNode } from 'react';

export interface CsvFile {
  name: string;
  text: string;
}

/**
 * A CSV chosen in a form, with a line saying what each row holds. The file is read here and
 * never uploaded: its text travels in the form's own request.
 */
export function CsvFileField({ hint, onChange }: { hint: ReactNode; onChange: (file?: CsvFile) => void }) {
  return (
    <>
      <Upload
        accept=".csv,text/csv"
        maxCount={1}
        beforeUpload={(f) => {
          void f.text().then((text) => onChange({ name: f.name, text }));
          return false;
        }}
        onRemove={() => onChange(undefined)}
      >
        <Button>选择 CSV 文件</Button>
      </Upload>
      <div style={{ margin: '8px 0 16px', color: '#888' }}>{hint}</div>
    </>
  );
}
