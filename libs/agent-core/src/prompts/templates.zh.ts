import type { PromptTemplates } from './templates';

export const CHINESE_TEMPLATES: PromptTemplates = {
  system: '你是一个乐于助人的助手。函数有助于回答时就使用它们；不需要时直接回答。',
  react_guide_xml_toon: `## 调用函数
示例（不是真实的函数）：
{example}
每个参数一行 名称: 值；列表和对象写成 TOON（如 items）或 JSON；多行文本写成 <p>名称: 文本</p>。一次回复中的多个调用会并发执行。<result> 中的 <every-row> 包含其表格每一行都相同的字段。要回答用户，回复中不要包含 <call>。`,
  react_guide_json_action: `## 调用函数
只回复一个 JSON 对象，不要有其他内容：
- 调用函数：{"type":"action","tool":"function_name","args":{"param":"value"}}
- 回答用户：{"type":"final","answer":"..."}
执行一个 action 后你会收到它的结果；然后继续行动或回答。`,
  planning: `## 规划
为用户的请求制定计划。只回复一个 JSON 对象，不要有其他内容：
{plan_format}
每一步用字面参数值调用一个函数；步骤按顺序执行；最多 {max_steps} 步。如果不需要任何函数，回复 {"steps":[]}。`,
  plan_format: '{"steps":[{"description":"这一步做什么","tool":"function_name","params":{"name":"value"}}]}',
  replan_failed_step: '第 {step} 步（{tool}）失败：{error}。',
  replan_completed_header: '已完成的步骤：',
  replan_completed_step: '- 第 {step} 步（{tool}）成功：{result}',
  replan_request: '用同样的 JSON 格式写出剩下要做的步骤：{plan_format}',
  summary_request: `计划已执行完毕。各步骤的结果：
{observations}
现在根据这些结果回答用户的请求。不要调用函数。`,
  plan_awaiting_approval: '计划正在等待批准：',
  repair_tool_arguments: '无法读取你的回复：{error}。请重新调用该函数，并以 JSON 对象作为参数。',
  repair_reply_xml_toon:
    '无法读取你的回复：{error}。每个调用写成 <call name="function_name">，然后每个参数一行 名称: 值，最后 </call>；要回答用户，回复中不要包含 <call>。',
  repair_reply_json_action:
    '无法读取你的回复：{error}。只回复一个 JSON 对象：{"type":"action","tool":"function_name","args":{...}} 或 {"type":"final","answer":"..."}。',
  repair_plan:
    '无法读取你的计划：{error}。只回复一个 JSON 对象：{"steps":[{"description":"..","tool":"function_name","params":{..}}]}。',
  history_summary_instructions:
    '你负责总结对话。保留事实、名称、数字、决定和未解决的问题；省略寒暄。最多 200 字。',
  history_summary_request: '总结这段对话，以便助手能够继续。',
  history_summary_message: '之前对话的摘要：\n{summary}',
  routing_instructions:
    '助手正在为用户处理一项任务。判断用户的新消息是关于这项任务的（更正、补充或对它的提问），还是一个独立的请求。只回复一个 JSON 对象，不要有其他内容：{"join":true|false,"reason":"简短理由"}',
  routing_request: '正在处理的任务：\n{goal}\n\n新消息：\n{message}',
  earlier_run_context:
    '在这段对话的早些时候，你处理过这个请求：\n{goal}\n你的回答是：\n{answer}\n用户现在接着这个话题继续。',
};
