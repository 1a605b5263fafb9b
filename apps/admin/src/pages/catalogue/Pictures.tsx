import {
  type AdminSiteProduct,
  adminCatalogueApi as api,
  MAX_PRODUCT_PICTURES,
  type ProductPictures,
} from '@sitemall/contract';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Drawer, Empty, Image, Popconfirm, Space, Spin, Tag, Upload } from 'antd';
import { useState } from 'react';
import { call, callForm } from '../../api';
import { useWrite } from '../write';

/**
 * A product's pictures: upload (the server tells the type by the file's bytes), set the main
 * picture, move, remove. The first picture is the main one the storefront's lists show.
 */
function PictureList({ product, manage }: { product: AdminSiteProduct; manage: boolean }) {
  const write = useWrite();
  const client = useQueryClient();
  const key = ['catalogue-pictures', product.siteId, product.productId];
  const pictures = useQuery({
    queryKey: key,
    queryFn: () => call(api.pictures, { siteId: product.siteId, productId: product.productId }),
  });
  const [busy, setBusy] = useState(false);
  const target = { siteId: product.siteId, productId: product.productId };
  const save = async (work: () => Promise<ProductPictures>, done: string) => {
    setBusy(true);
    await write(work, done, () => undefined);
    await client.invalidateQueries({ queryKey: key });
    setBusy(false);
  };
  if (pictures.isLoading) return <Spin />;
  if (pictures.error) return <Alert type="error" showIcon message={(pictures.error as Error).message} />;
  const images = pictures.data?.images ?? [];
  const sites = pictures.data?.sites ?? [];
  const moved = (from: number, to: number) => {
    const next = [...images];
    const [url] = next.splice(from, 1);
    next.splice(to, 0, url as string);
    return next;
  };
  const arrange = (next: string[], done: string) =>
    save(() => call(api.arrangePictures, { ...target, images: next }), done);
  return (
    <Space direction="vertical" style={{ width: '100%' }} size="middle">
      {sites.length > 1 && (
        <Alert
          type="info"
          showIcon
          message={`该商品在 ${sites.length} 个站点销售（${sites.join('、')}），图片修改会同时显示在这些站点`}
        />
      )}
      {manage && (
        <Upload
          accept="image/png,image/jpeg,image/webp"
          showUploadList={false}
          disabled={busy || images.length >= MAX_PRODUCT_PICTURES}
          beforeUpload={(file) => {
            void save(() => callForm(api.uploadPicture, target, file, file.name), '图片已上传');
            return false;
          }}
        >
          <Button type="primary" loading={busy} disabled={images.length >= MAX_PRODUCT_PICTURES}>
            上传图片
          </Button>
          <span style={{ marginLeft: 12, color: '#888' }}>
            PNG、JPG、WebP，不超过 2 MB，最多 {MAX_PRODUCT_PICTURES} 张；第一张为主图
          </span>
        </Upload>
      )}
      {images.length === 0 ? (
        <Empty description="暂无图片" />
      ) : (
        <Space wrap size="middle" data-testid="product-pictures">
          {images.map((url, i) => (
            <Card
              key={url}
              size="small"
              style={{ width: 180 }}
              cover={<Image src={url} alt={`图片 ${i + 1}`} height={150} style={{ objectFit: 'cover' }} />}
              actions={
                manage
                  ? [
                      <Button
                        key="left"
                        type="link"
                        size="small"
                        disabled={busy || i === 0}
                        aria-label="前移"
                        onClick={() => void arrange(moved(i, i - 1), '图片顺序已保存')}
                      >
                        ←
                      </Button>,
                      <Button
                        key="right"
                        type="link"
                        size="small"
                        disabled={busy || i === images.length - 1}
                        aria-label="后移"
                        onClick={() => void arrange(moved(i, i + 1), '图片顺序已保存')}
                      >
                        →
                      </Button>,
                      <Popconfirm
                        key="remove"
                        title="确认删除这张图片？"
                        onConfirm={() =>
                          save(() => call(api.removePicture, { ...target, url }), '图片已删除')
                        }
                      >
                        <Button type="link" size="small" danger disabled={busy}>
                          删除
                        </Button>
                      </Popconfirm>,
                    ]
                  : []
              }
            >
              {i === 0 ? (
                <Tag color="red">主图</Tag>
              ) : manage ? (
                <Button size="small" disabled={busy} onClick={() => void arrange(moved(i, 0), '主图已设置')}>
                  设为主图
                </Button>
              ) : (
                <Tag>图片 {i + 1}</Tag>
              )}
            </Card>
          ))}
        </Space>
      )}
    </Space>
  );
}

/** The 图片 link of a product row and its drawer. */
export function PicturesButton({ product, manage }: { product: AdminSiteProduct; manage: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        图片
      </Button>
      {open && (
        <Drawer
          open
          width={640}
          title={`商品图片：${product.name}`}
          onClose={() => setOpen(false)}
          destroyOnClose
        >
          <PictureList product={product} manage={manage} />
        </Drawer>
      )}
    </>
  );
}
