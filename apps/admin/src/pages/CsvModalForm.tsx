import { ModalForm } from '@ant-design/pro-components';
import { App, Button, Upload } from 'antd';
import { type ReactElement, type ReactNode, useState } from 'react';

export interface CsvFile {
  name: string;
  text: string;
}

/**
 * A CSV chosen in a form, with a line saying what each row holds. The file is read here and
 * never uploaded: its text travels in the form's own request.
 */
function CsvFileField({ hint, onChange }: { hint: ReactNode; onChange: (file?: CsvFile) => void }) {
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

/**
 * A modal form built around one CSV file: `fields` above the file, `children` below it (the
 * reason). Nothing is sent until a file is chosen; `onFinish` gets the form and the file and
 * answers whether the form may close.
 */
export function CsvModalForm<T extends Record<string, unknown>>({
  title,
  trigger,
  hint,
  initialValues,
  fields,
  children,
  onFinish,
}: {
  title: string;
  trigger: ReactElement;
  hint: ReactNode;
  initialValues?: Partial<T>;
  fields: ReactNode;
  children: ReactNode;
  onFinish: (form: T, file: CsvFile) => Promise<boolean>;
}) {
  const { message } = App.useApp();
  const [file, setFile] = useState<CsvFile>();
  return (
    <ModalForm<T>
      title={title}
      width={520}
      trigger={trigger}
      modalProps={{ destroyOnClose: true, afterClose: () => setFile(undefined) }}
      initialValues={initialValues}
      onFinish={async (form) => {
        if (file) return onFinish(form, file);
        message.warning('请选择 CSV 文件');
        return false;
      }}
    >
      {fields}
      <CsvFileField hint={hint} onChange={setFile} />
      {children}
    </ModalForm>
  );
}
