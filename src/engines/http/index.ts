export { httpLimits, openHttpExchanger, type ExchangeResult, type ExchangeSpec, type HttpExchanger } from './exchanger';
