import { type ActionType, ModalForm, ProFormText, ProTable } from '@ant-design/pro-components';
import {
  type AdminWhiteUser,
  adminActivityApi,
  WHITE_CODE_PATTERN,
  WHITE_IMPORT_RESULT_LABEL,
  WHITE_PHONE_PATTERN,
  type WhiteImportReport,
} from '@sitemall/contract';
import { Alert, Button, Card, Popconfirm, Space, Table, Tag, Upload } from 'antd';
import { useRef, useState } from 'react';
import { call, pageOf } from '../../api';
import { searchForm } from '../../columns';
import { useSession } from '../../session';
import { useRun, useWrite } from '../write';

interface InvitedActivity {
  id: number;
  siteId: number;
  audience: string;
}

/** Adds one invited user by hand: a white code and, optionally, the phone that passes the gate. */
function AddInvitedModal({ activity, onAdded }: { activity: InvitedActivity; onAdded: () => void }) {
  const write = useWrite();
  return (
    <ModalForm<{ whiteCode: string; phone?: string }>
      title="添加受邀用户"
      width={420}
      trigger={<Button>添加受邀用户</Button>}
      modalProps={{ destroyOnClose: true }}
      onFinish={(form) =>
        write(
          () =>
            call(adminActivityApi.addWhiteUser, {
              siteId: activity.siteId,
              activityId: activity.id,
              whiteCode: form.whiteCode.trim(),
              phone: form.phone?.trim() || undefined,
            }),
          '已添加受邀用户',
          onAdded,
        )
      }
    >
      <ProFormText
        name="whiteCode"
        label="邀请码"
        rules={[{ required: true, pattern: WHITE_CODE_PATTERN, message: '字母、数字、_ 或 -，最多 64 位' }]}
      />
      <ProFormText
        name="phone"
        label="手机号（可空）"
        tooltip="会员以此手机号登录即为受邀用户"
        rules={[{ pattern: WHITE_PHONE_PATTERN, message: '11 位数字，以 1 开头' }]}
      />
    </ModalForm>
  );
}

/** The per-line report of the last CSV import. */
function ImportReport({ report }: { report: WhiteImportReport }) {
  return (
    <Card
      size="small"
      title={`导入结果：新增 ${report.created} 行，已存在 ${report.existing} 行，错误 ${report.errors} 行`}
    >
      <Table
        size="small"
        rowKey="line"
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        dataSource={report.rows}
        columns={[
          { title: '行', dataIndex: 'line', width: 60 },
          { title: '邀请码', dataIndex: 'whiteCode' },
          { title: '手机号', dataIndex: 'phone' },
          {
            title: '结果',
            dataIndex: 'result',
            render: (v: keyof typeof WHITE_IMPORT_RESULT_LABEL, r) => (
              <Tag color={v === 'created' ? 'green' : v === 'exists' ? 'default' : 'red'}>
                {v === 'error' ? r.detail : WHITE_IMPORT_RESULT_LABEL[v]}
              </Tag>
            ),
          },
        ]}
      />
    </Card>
  );
}

/**
 * Invited users of an activity: found by code or phone, added one by one, imported from CSV
 * (white code, phone) with a report per line, removed one by one.
 */
export function InvitedUsers({ activity }: { activity: InvitedActivity }) {
  const { can } = useSession();
  const write = useWrite();
  const table = useRef<ActionType>(null);
  const reload = () => table.current?.reload();
  const run = useRun(reload);
  const [report, setReport] = useState<WhiteImportReport>();
  const manage = can('promotions:manage', activity.siteId);
  const scope = { siteId: activity.siteId, activityId: activity.id };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      {activity.audience !== 'invited' ? (
        <Alert type="info" showIcon message="本活动对所有会员开放；受邀名单仅在“仅受邀用户”活动中生效。" />
      ) : null}
      {manage ? (
        <Space wrap>
          <Upload
            accept=".csv,text/csv"
            showUploadList={false}
            beforeUpload={(file) => {
              // Read here, never uploaded as a file: the text travels in the import request.
              void file.text().then((text) =>
                write(
                  async () =>
                    setReport(
                      await call(adminActivityApi.importWhiteUsers, {
                        ...scope,
                        fileName: file.name,
                        text,
                      }),
                    ),
                  '导入完成',
                  reload,
                ),
              );
              return false;
            }}
          >
            <Button type="primary">导入受邀用户（CSV）</Button>
          </Upload>
          <AddInvitedModal activity={activity} onAdded={reload} />
          <span style={{ color: '#888' }}>
            每行：邀请码,手机号（可空）；首行可为表头；重复导入不会重复创建
          </span>
        </Space>
      ) : null}
      {report ? <ImportReport report={report} /> : null}
      <ProTable<AdminWhiteUser, { keyword?: string }>
        form={searchForm()}
        actionRef={table}
        rowKey="id"
        options={false}
        size="small"
        headerTitle="受邀用户"
        search={{ labelWidth: 'auto', span: 8 }}
        pagination={{ pageSize: 10, showSizeChanger: false }}
        locale={{ emptyText: '暂无受邀用户' }}
        request={(p) =>
          pageOf(adminActivityApi.whiteUsers, {
            ...scope,
            keyword: p.keyword?.trim() || undefined,
            pageNum: p.current,
          })
        }
        columns={[
          { title: '邀请码或手机号', dataIndex: 'keyword', hideInTable: true },
          { title: '邀请码', dataIndex: 'whiteCode', search: false },
          { title: '手机号', dataIndex: 'phone', search: false, render: (_, r) => r.phone || '-' },
          {
            title: '已绑定会员',
            dataIndex: 'memberId',
            search: false,
            render: (_, r) => (r.memberId ? `#${r.memberId}` : '未绑定'),
          },
          { title: '导入时间', dataIndex: 'createdAt', search: false },
          {
            title: '操作',
            key: 'op',
            width: 80,
            search: false,
            hideInTable: !manage,
            render: (_, r) => (
              <Popconfirm
                title={`移除受邀用户 ${r.whiteCode}？`}
                description="移除后该会员不能再参加本活动，已得奖品不变。"
                onConfirm={() =>
                  run(() => call(adminActivityApi.removeWhiteUser, { ...scope, id: r.id }), '已移除受邀用户')
                }
              >
                <Button type="link" danger>
                  移除
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </Space>
  );
}
