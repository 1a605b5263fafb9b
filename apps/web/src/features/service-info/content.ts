import { EXCHANGE_WINDOW_DAYS, MERCHANT_FINES, RETURN_WINDOW_DAYS } from '@sitemall/contract';

/**
 * Service information of the footer and the header's after-sales menu (spec section 2,
 * "Footer"; section 9 for the windows and fines). Text only: shown in a dialog.
 */

export interface ServiceContext {
  siteName: string;
  /** The decrypted site hotline; empty while unknown. */
  hotline: string;
  /** e.g. "周一至周日 8:00-18:00". */
  hours: string;
}

export interface InfoSection {
  heading?: string;
  paragraphs?: string[];
  steps?: string[];
}

export interface InfoEntry {
  key: string;
  title: string;
  sections: (ctx: ServiceContext) => InfoSection[];
}

export interface InfoGroup {
  key: string;
  title: string;
  entries: InfoEntry[];
}

export const serviceHours = (hours: string | undefined): string => (hours ? `周一至周日 ${hours}` : '');

const contact = (ctx: ServiceContext): string =>
  ctx.hotline
    ? `如有疑问，请拨打客服热线 ${ctx.hotline}${ctx.hours ? `（${ctx.hours}）` : ''}，我们将竭诚为您服务。`
    : '如有疑问，请通过“商城客服”联系我们，我们将竭诚为您服务。';

const [fineFirst, fineSecond, fineThird] = MERCHANT_FINES;

export const SERVICE_GROUPS: readonly InfoGroup[] = [
  {
    key: 'afterSales',
    title: '售后服务',
    entries: [
      {
        key: 'refundSteps',
        title: '退款申请步骤',
        sections: (ctx) => [
          {
            steps: [
              '登录商城，点击页面顶部“我的订单”，进入订单列表，找到需要退款的订单并点击“订单详情”，记下订单号。',
              '联系商城客服（“商城客服”页面或客服热线），说明订单号、需要退款的商品和退款原因；如商品存在质量问题，请准备清晰的商品及包装照片。',
              '客服核实后为您登记退款；如需退回商品，客服会告知退货地址，请在 7 日内寄回并告知物流公司和运单号。',
              '退款完成后，款项原路退回，您可在“账单明细”中查看退回记录。',
            ],
          },
          {
            heading: '温馨提示',
            paragraphs: [
              '未发货的订单，客服核实后可直接为您办理退款，款项原路退回。',
              '虚拟商品（如充值、卡券、电影票）一经发放不支持退款，页面另有说明的除外。',
              contact(ctx),
            ],
          },
        ],
      },
      {
        key: 'refundFlow',
        title: '退款流程',
        sections: (ctx) => [
          {
            steps: [
              '提出申请：您联系商城客服，提供订单号与退款原因，客服为您登记退款。',
              '商家审核：商家在 2 个工作日内审核；超时未处理的，系统自动同意申请。',
              '退回商品（退货退款时）：审核通过后，您按客服告知的地址寄回商品并告知运单号。',
              '商家验收：商家收到退货后 3 个工作日内完成验收，确认商品完好、配件及赠品齐全。',
              '退款到账：验收通过后发起退款。积分支付的订单，积分即时退回账户；微信支付的订单，款项原路退回，一般 1-7 个工作日到账。',
            ],
          },
          {
            heading: '退款说明',
            paragraphs: [
              '使用积分与现金组合支付的订单，按实际支付比例分别退回积分与现金。',
              '订单使用的优惠券在整单退款后退回账户，已过有效期的优惠券不予退回。',
              '退款进度可向商城客服查询，也可在“账单明细”中核对积分退回记录。',
              contact(ctx),
            ],
          },
        ],
      },
      {
        key: 'returnPolicy',
        title: '退货政策',
        sections: (ctx) => [
          {
            heading: `${RETURN_WINDOW_DAYS}天无理由退货`,
            paragraphs: [
              `自签收商品次日起 ${RETURN_WINDOW_DAYS} 天内，在商品完好的前提下，您可以申请无理由退货。商品完好是指：商品本身、配件、赠品、说明书、发票及包装齐全，不影响二次销售。`,
              '无理由退货的商品，退回运费由您承担；因商品质量问题或发错、漏发造成的退货，运费由商家承担。',
            ],
          },
          {
            heading: '以下商品不支持无理由退货',
            steps: [
              '定制类商品，以及拆封后影响人身安全或生命健康的商品（如贴身衣物、食品、化妆品）。',
              '鲜活易腐类商品（如生鲜、蛋糕、鲜花）。',
              '在线下载或已拆封的音像制品、计算机软件等数字化商品。',
              '虚拟商品，包括充值、卡券、电影票、立减金等。',
              '商品详情页已标明不支持七天无理由退货的商品。',
            ],
          },
          { paragraphs: [contact(ctx)] },
        ],
      },
      {
        key: 'exchangePolicy',
        title: '换货政策',
        sections: (ctx) => [
          {
            heading: `${EXCHANGE_WINDOW_DAYS}天换货`,
            paragraphs: [
              `自签收商品次日起 ${EXCHANGE_WINDOW_DAYS} 天内，商品出现性能故障或质量问题的，您可以申请换货，换货商品为同款同规格商品。`,
              '申请时请提供故障描述及照片；如需检测，以品牌售后或商家检测结果为准。',
              '换货商品寄回后，商家在收到商品 3 个工作日内寄出新商品；同款商品缺货时，可改为退货退款。',
              '质量问题换货的往返运费由商家承担；非质量问题不支持换货，可按退货政策办理。',
            ],
          },
          { paragraphs: [contact(ctx)] },
        ],
      },
    ],
  },
  {
    key: 'about',
    title: '关于我们',
    entries: [
      {
        key: 'merchantRules',
        title: '商家入驻审核规则',
        sections: (ctx) => [
          {
            heading: '入驻审核',
            steps: [
              '商家在“商家入驻”页面提交营业执照、法定代表人身份证明、品牌授权书或商标注册证、行业经营许可证及对公账户信息。',
              '平台在 5 个工作日内完成资质审核，审核结果以短信通知；资料不全的，需在 15 日内补充，逾期视为放弃申请。',
              '审核通过后签署入驻协议，完成店铺装修和商品上架，经平台抽检合格后开始营业。',
            ],
          },
          {
            heading: '经营违规处理',
            paragraphs: [
              '商家须保证商品来源合法、质量合格、描述真实，按时发货并履行售后义务。出现售假、虚假发货、恶意拒绝售后、泄露买家信息等违规行为的，按以下规则累进处罚：',
            ],
            steps: [
              `第一次违规：罚款 ${fineFirst} 元，并限期整改。`,
              `第二次违规：罚款 ${fineSecond} 元，违规商品下架。`,
              `第三次违规：罚款 ${fineThird} 元，店铺暂停营业整顿。`,
              '第四次违规：店铺清退，终止合作，未结算货款优先用于赔付消费者。',
            ],
          },
          { paragraphs: [`${ctx.siteName || '本商城'}保留对违规行为的最终认定权。${contact(ctx)}`] },
        ],
      },
      {
        key: 'contactUs',
        title: '联系我们',
        sections: (ctx) => [
          {
            paragraphs: [
              `${ctx.siteName || '本商城'}是面向会员的积分商城，提供精选实物商品、生活服务与虚拟权益，支持积分支付与微信支付。`,
              ctx.hotline ? `客服热线：${ctx.hotline}` : '客服热线：请通过“商城客服”联系我们。',
              ctx.hours ? `服务时间：${ctx.hours}` : '',
              '商家合作：请通过页面顶部“商家入驻”提交入驻申请。',
            ].filter(Boolean),
          },
        ],
      },
    ],
  },
  {
    key: 'logistics',
    title: '物流配送',
    entries: [
      {
        key: 'delivery',
        title: '配送说明',
        sections: (ctx) => [
          {
            paragraphs: [
              '实物商品由商家或合作快递配送，下单后一般 48 小时内发货，预售及定制商品以详情页说明为准。',
              '配送范围覆盖全国大部分地区；部分偏远地区（如新疆、西藏、青海等）可能加收运费或暂不支持配送，以结算页显示为准。',
              '运费在结算页按收货地址计算并显示，提交订单前请确认收货地址、联系人及电话准确无误。',
              '虚拟商品（充值、卡券、电影票等）无需配送，支付成功后发放至账户或下单手机号。',
            ],
          },
          {
            heading: '签收提示',
            paragraphs: [
              '请当面检查外包装，如有破损、少件，请拒收或请配送员出具证明，并及时联系客服。',
              contact(ctx),
            ],
          },
        ],
      },
      {
        key: 'tracking',
        title: '物流查询',
        sections: (ctx) => [
          {
            steps: [
              '登录后点击页面顶部“我的订单”。',
              '在订单列表中找到对应订单，点击“查看物流”，即可查看快递公司、运单号及配送轨迹。',
              '一个订单拆分为多个包裹发货时，可在订单详情中分别查看每个包裹的物流。',
            ],
          },
          { paragraphs: ['发货后超过 72 小时物流信息仍未更新的，请联系客服协助查询。', contact(ctx)] },
        ],
      },
    ],
  },
  {
    key: 'account',
    title: '账户管理',
    entries: [
      {
        key: 'accountHelp',
        title: '注册与登录',
        sections: (ctx) => [
          {
            paragraphs: [
              '本商城支持短信验证码登录、密码登录和账号登录，具体方式以登录页面为准。',
              '使用手机号注册时，请填写本人正在使用的 11 位手机号，验证码 60 秒后可重新获取。',
              '合作机构的会员可从机构 App 或公众号直接进入商城，无需另行注册。',
              contact(ctx),
            ],
          },
        ],
      },
      {
        key: 'passwordHelp',
        title: '密码与账户安全',
        sections: (ctx) => [
          {
            paragraphs: [
              '登录后点击页面顶部“个人中心 - 修改登录密码”，输入原始密码和两次新密码即可修改。',
              '密码必须包含字母加数字，且处于6-20位之间；请勿使用生日、手机号等易被猜到的密码。',
              '忘记密码时，可在登录页点击“忘记密码”，通过手机验证码重置。',
              '请勿将密码、验证码告知他人；商城工作人员不会以任何理由索要您的密码或验证码。',
              contact(ctx),
            ],
          },
        ],
      },
    ],
  },
];

export const findEntry = (key: string): InfoEntry | undefined =>
  SERVICE_GROUPS.flatMap((group) => group.entries).find((entry) => entry.key === key);
