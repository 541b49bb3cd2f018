/**
 * Label and heading words, in English and Chinese, that say what a page, form or field is for.
 * Chinese has no word boundaries, so its words match anywhere; English words match whole.
 */
const words = (english: ReadonlyArray<string>, chinese: ReadonlyArray<string>): RegExp =>
  new RegExp(`\\b(?:${english.join("|")})\\b|${chinese.join("|")}`, "i")

export const KEYWORDS = {
  login: words(["log ?in", "sign ?in", "signin", "login"], ["登录", "登入", "登陆", "用户登录"]),
  registration: words(
    ["register", "registration", "sign ?up", "signup", "create (?:an )?account", "join"],
    ["注册", "创建账号", "创建帐户", "立即注册"],
  ),
  search: words(["search", "find", "query", "lookup"], ["搜索", "查询", "检索", "查找"]),
  dashboard: words(
    ["dashboard", "welcome", "overview", "my account"],
    ["控制台", "仪表盘", "欢迎", "概览", "我的账户"],
  ),
  settings: words(["settings", "preferences", "profile", "account settings"], ["设置", "偏好", "个人资料"]),
  checkout: words(
    ["checkout", "payment", "card number", "billing", "place order", "pay"],
    ["结算", "支付", "付款", "下单", "银行卡"],
  ),
  contact: words(["contact", "message", "feedback", "enquiry", "inquiry"], ["联系", "留言", "反馈", "咨询"]),
  error: words(
    ["not found", "error", "404", "500", "server error", "forbidden", "unavailable"],
    ["错误", "找不到", "页面不存在", "服务器错误"],
  ),
  detail: words(
    ["add to cart", "buy now", "specifications", "details", "sku"],
    ["加入购物车", "立即购买", "详情", "规格"],
  ),
  listing: words(
    ["products", "results", "items", "page \\d+ of", "next", "previous"],
    ["列表", "结果", "下一页", "上一页"],
  ),
  email: words(["e-?mail", "email address"], ["邮箱", "电子邮件", "邮件地址"]),
  password: words(["password", "passcode", "pass ?phrase"], ["密码", "口令"]),
  confirm: words(["confirm", "repeat", "again"], ["确认", "再次", "重复"]),
  phone: words(["phone", "telephone", "mobile", "tel"], ["电话", "手机", "手机号"]),
  name: words(["name", "full name", "first name", "last name"], ["姓名", "名字", "称呼"]),
  username: words(["user ?name", "login name", "account"], ["用户名", "账号", "帐号"]),
  date: words(["date", "birthday", "day"], ["日期", "生日"]),
  url: words(["website", "url", "homepage"], ["网址", "网站"]),
  number: words(["quantity", "amount", "age", "count", "number"], ["数量", "金额", "年龄"]),
  message: words(["message", "comment", "description", "notes?"], ["留言", "内容", "备注", "描述"]),
  optional: words(["optional"], ["选填", "可选"]),
  required: words(["required"], ["必填"]),
} as const
